import type { EmailMessage } from '../../../contract/captured-message.js'

/**
 * A captured email as the MIME message a mail server would receive (what `spamd` scores): headers
 * from the send (From, To, Subject, Date, Message-ID), and a multipart/alternative body with the
 * readable text and the HTML, each base64 in lines of 76. Plain TypeScript (no Buffer), so it runs
 * wherever the domain does.
 */

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary).replace(/.{1,76}/g, '$&\r\n')
}

/** A header value: ASCII as it is (controls removed), anything else as an RFC 2047 encoded word. */
function headerValue(value: string): string {
  const clean = value.replace(/[\r\n\u0000-\u001f]+/g, ' ')
  return /^[\u0020-\u007e]*$/.test(clean) ? clean : `=?UTF-8?B?${base64(clean).replace(/\r\n/g, '')}?=`
}

function address(name: string | null, email: string): string {
  return name ? `${headerValue(/^[\w .-]*$/.test(name) ? name : JSON.stringify(name))} <${email}>` : email
}

/** The email as a MIME message (CRLF line ends). */
export function toMime(message: EmailMessage): string {
  const from = message.email.from
  const boundary = `sendbox-${message.message_id}`
  const headers = [
    `From: ${from ? address(from.name, from.email) : 'sender@sendbox.test'}`,
    `To: ${message.to}`,
    `Subject: ${headerValue(message.email.subject)}`,
    `Date: ${new Date(message.created_at).toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${message.message_id}@sendbox.test>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
  ]
  const part = (type: string, body: string) => [`--${boundary}`, `Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: base64', '', base64(body)].join('\r\n')
  return [...headers, '', part('text/plain', message.text), part('text/html', message.email.html), `--${boundary}--`, ''].join('\r\n')
}
