/**
 * The one gate between client text and the terminal. Everything the terminal UI prints that a
 * client sent (subject, names, from/to, text, links, template, parameters, request bodies) goes
 * through {@link safeText} (multi-line text, before it is wrapped) or {@link printable} (a row).
 *
 * Removed, each run of them shown as ONE visible {@link MARKER} so a reader sees that something
 * was there:
 * - escape sequences, whole: CSI (`ESC [` or C1 `0x9B` … final byte), OSC (`ESC ]` or `0x9D` …
 *   BEL or ST: window titles OSC 0/2, hyperlinks OSC 8, clipboard OSC 52), DCS, SOS, PM, APC
 *   (`ESC P`/`X`/`^`/`_` or `0x90`/`0x98`/`0x9E`/`0x9F` … ST), and two-byte `ESC x` sequences.
 *   A string sequence without its terminator loses only its introducer (the rest is shown);
 * - every other C0 control but tab and line breaks, DEL, every C1 control;
 * - bidi controls (U+202A–202E embeddings/overrides, U+2066–2069 isolates, U+200E/200F marks,
 *   U+061C), which reorder what is shown;
 * - invisible fillers (U+3164, U+115F, U+1160, U+FFA0 Hangul fillers, U+200B–200D zero-width
 *   space/joiners, U+2060 word joiner, U+2061–2064 invisible operators, U+FEFF, U+180E), which make two different strings look
 *   the same. A zero-width joiner between two emoji (👩‍💻) is kept: it is how the emoji is drawn;
 * - characters that draw nothing yet carry meaning to a reader that is a program (an agent): the
 *   soft hyphen U+00AD, the grapheme joiner U+034F, the deprecated format controls U+206A–206F,
 *   the interlinear annotation marks U+FFF9–FFFB, and the tag characters U+E0000–E007F (which
 *   spell ASCII invisibly; a flag emoji drawn with them loses its tags).
 *
 * One linear pass (a sequence's body stops at the next ESC, so no position is scanned twice);
 * text with nothing to remove is returned as is, after one test.
 */

/** What a removed run is shown as. */
export const MARKER = '\ufffd'

/* eslint-disable no-control-regex */
const STRING_SEQUENCE =
  '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c)'
const CSI = '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]'
const ESCAPE = '\\u001b[\\u0020-\\u002f]*[\\u0030-\\u007e]?'
const CONTROLS_AND_INVISIBLES =
  '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u180e\\u200b\\u200c\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}]'
const EMOJI = '\\p{Extended_Pictographic}'
/** A zero-width joiner that does not join two emoji (an emoji may carry VS16 or a skin tone before it). */
const LONE_ZWJ = `(?<!${EMOJI}[\\ufe0f\\u{1f3fb}-\\u{1f3ff}]?)\\u200d|\\u200d(?!${EMOJI})`
const HOSTILE_RUN = new RegExp(`(?:${STRING_SEQUENCE}|${CSI}|${ESCAPE}|${CONTROLS_AND_INVISIBLES}|${LONE_ZWJ})+`, 'gu')
/** Any character that may start something {@link HOSTILE_RUN} removes. */
const SUSPECT =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}]/u
/* eslint-enable no-control-regex */

const ESCAPES_AND_CONTROLS = new RegExp(
  `(?:${STRING_SEQUENCE}|${CSI}|${ESCAPE}|[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f])+`,
  'gu',
)
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/

/**
 * `text` with terminal escape sequences (whole, their payload with them: an OSC 8 hyperlink's
 * URL, a DCS string) and the other controls but `\t`, `\n`, `\r` removed, leaving nothing in
 * their place: what a terminal shows of it. Links are found in this (issue 36, R18), so an escape
 * sequence neither makes a link (its payload is no text) nor hides one (`ht\e[0mtps://…` is the
 * link a reader sees). Linear; text without a control is returned as is.
 */
export function withoutEscapes(text: string): string {
  if (!CONTROL.test(text)) return text
  ESCAPES_AND_CONTROLS.lastIndex = 0
  return text.replace(ESCAPES_AND_CONTROLS, '')
}

/**
 * `text` with escape sequences, controls (but `\t`, `\n`, `\r`), bidi controls and invisible
 * fillers removed, each removed run shown as one {@link MARKER}. Line breaks and tabs stay, for
 * the views to lay out (wrap at `\n`, a tab as a space).
 */
export function safeText(text: string): string {
  if (!SUSPECT.test(text)) return text
  HOSTILE_RUN.lastIndex = 0
  return text.replace(HOSTILE_RUN, MARKER)
}

/**
 * One screen row of client text: {@link safeText}, then what is left that would break a row or
 * draw wrong becomes a space (tab, line breaks, U+2028/2029, a no-break space: it does not break
 * when wrapping, which happens before, and rows of plain ASCII take Ink's fast path), and a lone
 * surrogate becomes U+FFFD. Linear.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return safeText(text).replace(
    /[\t\n\r\u00a0\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => (c.charCodeAt(0) >= 0xd800 ? '\ufffd' : ' '),
  )
}

/** True when `text` prints as it is: nothing {@link safeText} would remove. */
export function isSafeText(text: string): boolean {
  return !SUSPECT.test(text) || safeText(text) === text
}
