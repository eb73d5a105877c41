import type { EmailMessage } from '../../../contract/captured-message.js'

/**
 * A captured email as the MIME message a receiving server would see (RFC 5322 / 2045–2047): what
 * SpamAssassin's `spamd` scores. Headers are ASCII (non-ASCII text as UTF-8 encoded-words), lines
 * end in CRLF, both bodies are quoted-printable UTF-8 (the text and the HTML as
 * multipart/alternative, or the HTML alone when there is no text). A missing `from` leaves the
 * From header out, as the send did: spamd then says so.
 */

export type MimeSource = Pick<EmailMessage, 'message_id' | 'to' | 'created_at' | 'text' | 'email'>

const CRLF = '\r\n'
const encoder = new TextEncoder()

/** A header's text: as is when printable ASCII, else UTF-8 base64 encoded-words of at most 75 characters. */
export function encodeHeaderText(text: string): string {
  const clean = text.replace(/[\r\n]+/g, ' ')
  if (/^[\x20-\x7e]*$/.test(clean)) return clean
  const words: string[] = []
  let chunk = ''
  for (const char of clean) {
    // 45 UTF-8 bytes → 60 base64 characters, + 12 for `=?UTF-8?B?…?=`.
    if (encoder.encode(chunk + char).length > 45) {
      words.push(chunk)
      chunk = ''
    }
    chunk += char
  }
  if (chunk) words.push(chunk)
  return words.map((word) => `=?UTF-8?B?${base64(encoder.encode(word))}?=`).join(`${CRLF} `)
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** An address header's value: `"Name" <a@b>` (the name encoded when needed) or `<a@b>`. */
function address(email: string, name: string | null | undefined): string {
  if (!name) return `<${email}>`
  const text = encodeHeaderText(name)
  return text === name ? `"${name.replace(/["\\]/g, '\\$&')}" <${email}>` : `${text} <${email}>`
}

/** Quoted-printable (RFC 2045 §6.7) of a text's UTF-8 bytes, lines at most 76 characters, CRLF breaks. */
export function quotedPrintable(text: string): string {
  return text
    .replace(/\r?\n/g, '\n')
    .split('\n')
    .map((line) => {
      const bytes = encoder.encode(line)
      let out = ''
      let width = 0
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i]!
        const last = i === bytes.length - 1
        const plain = (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !last)
        const piece = plain ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`
        if (width + piece.length > 75) {
          out += `=${CRLF}`
          width = 0
        }
        out += piece
        width += piece.length
      }
      return out
    })
    .join(CRLF)
}

function part(type: string, body: string): string {
  return [
    `Content-Type: ${type}; charset=utf-8`,
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(body),
  ].join(CRLF)
}

/** The RFC 5322 date of an ISO time (`Thu, 26 Nov 2026 08:55:21 +0000`). */
function mailDate(iso: string): string {
  const date = new Date(iso)
  return (Number.isNaN(date.getTime()) ? new Date(0) : date).toUTCString().replace(/GMT$/, '+0000')
}

/** A captured email as a MIME message (CRLF line ends). */
export function emailToMime(message: MimeSource): string {
  const { email } = message
  const id = message.message_id.replace(/[^\w.-]/g, '')
  const headers = [
    ...(email.from ? [`From: ${address(email.from.email, email.from.name)}`] : []),
    `To: ${address(message.to, undefined)}`,
    `Subject: ${encodeHeaderText(email.subject)}`,
    `Date: ${mailDate(message.created_at)}`,
    `Message-ID: <${id}@sendbox.invalid>`,
    'MIME-Version: 1.0',
  ]
  const text = message.text.trim()
  if (!text) return [...headers, part('text/html', email.html)].join(CRLF) + CRLF
  // "=_" never occurs in a quoted-printable body ("=" is always "=3D" or a soft break there).
  const boundary = `=_sendbox_${id}`
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    part('text/plain', message.text),
    `--${boundary}`,
    part('text/html', email.html),
    `--${boundary}--`,
    '',
  ].join(CRLF)
}
