// The application code under test: sign-up with a phone number confirmed by a one-time code.
// It talks to the messaging API's real base URL and knows nothing about sendbox.
import { randomInt } from 'node:crypto'

export const API_BASE_URL = process.env.MESSAGING_API_URL ?? 'https://api.example.com/v1'
const API_KEY = process.env.MESSAGING_API_KEY ?? 'shop_key'

const pending = new Map<string, string>()

async function api(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${API_BASE_URL}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = (await response.json()) as Record<string, unknown>
  if (!response.ok) throw new Error(`messaging API answered ${response.status}: ${JSON.stringify(json)}`)
  return json
}

/** Creates the subscriber and texts them a six-digit code. */
export async function signUp(email: string, phone: string): Promise<void> {
  await api('/subscribers', { email, phone, tags: ['pending'] })
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  pending.set(phone, code)
  await api('/sms/send', {
    to: phone,
    message: `Your Acme verification code is ${code}. It expires in 10 minutes.`,
    from: 'Acme',
  })
}

/** True when the code is the one texted to that phone. */
export function confirm(phone: string, code: string): boolean {
  return pending.get(phone) === code
}
