/**
 * Strings a client can put in a message to act on a terminal, a clipboard or a page: the list
 * the terminal UI (frames and raw bytes) and the web inbox are tested against.
 */
export const HOSTILE = {
  /** OSC 0 and OSC 2: set the window title. */
  osc0: '\u001b]0;pwned-title\u0007',
  osc2: '\u001b]2;pwned-title2\u001b\\',
  /** OSC 8: a hyperlink whose target differs from its text. */
  osc8: '\u001b]8;;https://evil.example/steal\u0007click me\u001b]8;;\u0007',
  /** OSC 52: write the clipboard (base64 of "rm -rf ~"). */
  osc52: '\u001b]52;c;cm0gLXJmIH4=\u0007',
  /** CSI: clear the screen. */
  csi: '\u001b[2J',
  /** DCS (a terminal's request/response channel). */
  dcs: '\u001bP+q544e\u001b\\',
  /** C1 CSI (one byte), then an SGR that would paint red. */
  c1: '\u009b31m',
  /** Right-to-left override: `exe.txt` shows as `txt.exe`. */
  rlo: '\u202eexe.txt',
  /** Hangul filler: an invisible "letter". */
  filler: 'a\u3164b',
  /** Zero-width space. */
  zwsp: 'pay\u200bpal',
} as const

/** Everything in one string, between plain words a reader can look for. */
export const HOSTILE_TEXT = Object.entries(HOSTILE)
  .map(([name, value]) => `[${name}:${value}]`)
  .join(' ')

/** An email html carrying every payload in its subject-like heading, text, an href with a line feed in it, and an image. */
export function hostileEmailHtml(): string {
  return (
    `<h1>Hello ${HOSTILE.rlo}</h1><p>${HOSTILE_TEXT}</p>` +
    `<a href="https://acme.example/reset?\ntoken=abc${'\u001b'}]52;c;aGk=${'\u0007'}">Reset</a>` +
    `<a href="https://user@acme.example/x">userinfo</a> <a href="https://xn--pple-43d.example/">punycode</a>` +
    `<p>Or open https://acme.example/plain${HOSTILE.csi}tail</p>`
  )
}

/** Bytes that must never reach a terminal from message content: ESC, BEL, C1, bidi controls and fillers. */
// eslint-disable-next-line no-control-regex
export const FORBIDDEN_IN_OUTPUT = /[\u0007\u0080-\u009f\u202a-\u202e\u2066-\u2069\u200b\u3164]/
