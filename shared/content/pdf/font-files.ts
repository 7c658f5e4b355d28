/**
 * The font files PDFs use (package, path inside it): read at run time by fonts.ts, and copied
 * flat into the Lambda bundle of the functions that render PDFs (infra/constructs/service-function.ts,
 * `PDF_FONT_DIR`). No imports: the CDK app reads this list too.
 */
export type FontFace = 'sans' | 'sans-bold' | 'sans-italic' | 'sans-bold-italic' | 'mono' | 'mono-bold' | 'arabic' | 'hebrew' | 'cjk' | 'korean' | 'emoji';

/** Package and file of each face; `PDF_FONT_DIR` holds the same files flat. */
export const FONT_FILES: Record<FontFace, [string, string]> = {
  'sans': ['@expo-google-fonts/noto-sans', '400Regular/NotoSans_400Regular.ttf'],
  'sans-bold': ['@expo-google-fonts/noto-sans', '700Bold/NotoSans_700Bold.ttf'],
  'sans-italic': ['@expo-google-fonts/noto-sans', '400Regular_Italic/NotoSans_400Regular_Italic.ttf'],
  'sans-bold-italic': ['@expo-google-fonts/noto-sans', '700Bold_Italic/NotoSans_700Bold_Italic.ttf'],
  'mono': ['@expo-google-fonts/noto-sans-mono', '400Regular/NotoSansMono_400Regular.ttf'],
  'mono-bold': ['@expo-google-fonts/noto-sans-mono', '700Bold/NotoSansMono_700Bold.ttf'],
  'arabic': ['@expo-google-fonts/noto-sans-arabic', '400Regular/NotoSansArabic_400Regular.ttf'],
  'hebrew': ['@expo-google-fonts/noto-sans-hebrew', '400Regular/NotoSansHebrew_400Regular.ttf'],
  'cjk': ['@expo-google-fonts/noto-sans-sc', '400Regular/NotoSansSC_400Regular.ttf'],
  'korean': ['@expo-google-fonts/noto-sans-kr', '400Regular/NotoSansKR_400Regular.ttf'],
  // Monochrome (PDF text is vector glyphs): emoji print in the text's colour.
  'emoji': ['@expo-google-fonts/noto-emoji', '400Regular/NotoEmoji_400Regular.ttf'],
};

/**
 * Scripts other than Latin, Cyrillic and Greek, tried in this order after the style's own face;
 * emoji last, so a symbol the text fonts have (©, arrows, digits) keeps their look.
 */
export const FALLBACK_FACES: FontFace[] = ['arabic', 'hebrew', 'cjk', 'korean', 'emoji'];

