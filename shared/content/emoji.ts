/**
 * Emoji as the public interface carries them (`Emoji`: "Unicode codepoint or character of the
 * emoji", at most 50 characters): the character itself (🎉, ❤️, 👨‍💻, 🇫🇷) or its code points in
 * hex as GitBook's app writes them (`1f389`, `1f468-200d-1f4bb`). One rule for every field that
 * takes one (spaces, pages, comment reactions) and for showing them.
 */

const CODE_POINTS = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/i;
const CHARACTERS = /^[\p{Extended_Pictographic}\p{Emoji_Component}\u200d\ufe0f\u20e3]+$/u;
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u20e3]/u;

export const EMOJI_MAX_LENGTH = 50;

/** Whether `value` is an emoji written either way (code points must name Unicode code points). */
export function isEmoji(value: string): boolean {
  if (CODE_POINTS.test(value)) return value.split('-').every((hex) => Number.parseInt(hex, 16) <= 0x10ffff);
  return CHARACTERS.test(value) && PICTOGRAPH.test(value);
}

/** The emoji's characters, for showing it: code points become characters, characters stay. */
export function emojiText(value: string): string {
  if (!CODE_POINTS.test(value) || !isEmoji(value)) return value;
  return String.fromCodePoint(...value.split('-').map((hex) => Number.parseInt(hex, 16)));
}
