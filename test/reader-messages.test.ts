import { describe, expect, it } from 'vitest';
import { siteCustomizationBody } from '../functions/sites/customization-schemas.ts';
import { CLIENT_MESSAGE_KEYS, clientMessages, formatDate, message, messageParts, READER_MESSAGES, readerIntl } from '../shared/reader/messages.ts';

/** The locales a site's customization accepts (`internationalization.locale`), read from the schema itself. */
const schemaLocales = siteCustomizationBody.entries.internationalization.entries.locale.options as readonly string[];
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('reader messages', () => {
  it('every locale of the customization schema has the table, and the table no other locale', () => {
    expect(Object.keys(READER_MESSAGES).sort()).toEqual([...schemaLocales].sort());
  });

  it('every locale has every key of the English table (no more), non-empty, with the same placeholders', () => {
    const english = READER_MESSAGES.en;
    for (const locale of schemaLocales) {
      const table = READER_MESSAGES[locale as keyof typeof READER_MESSAGES];
      expect(Object.keys(table).sort(), locale).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        const translated = table[key as keyof typeof english];
        expect(typeof translated === 'string' && translated.trim().length > 0, `${locale}.${key}`).toBe(true);
        expect(placeholders(translated), `${locale}.${key}`).toEqual(placeholders(text));
      }
    }
  });

  it('looks a locale up with English for anything else; values go in, dates are written as the locale writes them', () => {
    expect(readerIntl('fr').messages.onThisPage).toBe('Sur cette page');
    expect(readerIntl('pt-br').lang).toBe('pt-BR');
    for (const unknown of [undefined, 'xx', 'EN', 42]) expect(readerIntl(unknown)).toMatchObject({ locale: 'en', lang: 'en' });
    const ja = readerIntl('ja');
    expect(message(ja, 'searchNoResultsFor', { query: '$& zz' })).toBe('「$& zz」に一致する結果はありません。');
    expect(messageParts(readerIntl('en'), 'lastUpdated', { date: 1 })).toEqual(['Last updated ', 1]);
    const date = new Date('2026-03-05T23:30:00Z');
    expect(formatDate(readerIntl('en'), date)).toBe('March 5, 2026');
    expect(formatDate(readerIntl('fr'), date)).toBe('5 mars 2026');
    expect(formatDate(ja, date)).toBe('2026年3月5日');
    expect(JSON.parse(clientMessages(readerIntl('fr')))).toEqual({ copy: 'Copier', copied: 'Copié', searchNoResultsFor: 'Aucun résultat pour «\u00a0{query}\u00a0».', switchToLight: 'Passer au thème clair', switchToDark: 'Passer au thème sombre' });
    expect(Object.keys(JSON.parse(clientMessages(ja)))).toEqual([...CLIENT_MESSAGE_KEYS]);
  });
});
