/**
 * The application under test, shared by both suites: what a user's own code does. It calls the
 * real messaging service's URLs with `fetch`; each suite intercepts them with msw (sendbox's
 * handlers, or hand-written ones) and asserts on what was sent.
 */
export const API = 'https://api.messaging.example/v1'
export const KEY = 'key_suite'

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, json: await response.json() }
}

async function send(channel: 'email' | 'sms' | 'whatsapp', body: unknown): Promise<string> {
  const { status, json } = await call('POST', `/${channel}/send`, body)
  if (status !== 200) throw new Error(`${channel} send answered ${status}: ${JSON.stringify(json)}`)
  return json.message_id
}

const page = (title: string, inner: string) =>
  `<html><body><h1>${title}</h1>${inner}<p>Thanks,<br>The Acme team</p><p><a href="https://acme.example/unsubscribe">Unsubscribe</a></p></body></html>`

export const sendSignupEmail = (to: string, token: string) =>
  send('email', {
    to,
    subject: 'Confirm your address',
    html: page(
      'Welcome to Acme',
      `<p>Please confirm your address:</p><p><a href="https://app.acme.example/verify?token=${token}">Confirm</a></p>`,
    ),
  })
export const sendPasswordReset = (to: string, token: string) =>
  send('email', {
    to,
    subject: 'Reset your password',
    html: page(
      'Password reset',
      `<p>Someone asked to reset your password.</p><p><a href="https://app.acme.example/reset/${token}">Choose a new password</a></p>`,
    ),
  })
export const sendMagicLink = (to: string, token: string) =>
  send('email', {
    to,
    subject: 'Your sign-in link',
    from: { email: 'no-reply@acme.example', name: 'Acme' },
    html: page(
      'Sign in',
      `<p><a href="https://app.acme.example/magic?t=${token}&amp;r=%2Fhome">Sign in to Acme</a></p>`,
    ),
  })
export const sendLoginCodeEmail = (to: string, code: string) =>
  send('email', {
    to,
    subject: 'Your login code',
    html: page('Log in', `<p>Your login code is <b>${code}</b>. It expires in 10 minutes.</p>`),
  })
export const sendVerificationSms = (to: string, code: string) =>
  send('sms', { to, message: `Your Acme verification code is ${code}` })
export const sendSignInSms = (to: string, code: string) =>
  send('sms', { to, from: 'Acme', message: `${code} is your Acme sign-in code. Do not share it.` })
export const sendReminderSms = (to: string, link: string) =>
  send('sms', { to, message: `Reminder: your appointment is tomorrow at 10:00. Reschedule: ${link}` })
export const sendWhatsappOtp = (to: string, code: string) =>
  send('whatsapp', { to, template: 'otp_login', language: 'en', parameters: { '1': code } })
export const sendWhatsappShipped = (to: string, url: string) =>
  send('whatsapp', { to, template: 'order_shipped', language: 'en_US', parameters: { name: 'Ana', tracking_url: url } })

export const createSubscriber = (body: unknown) => call('POST', '/subscribers', body)
export const getSubscriber = (id: string) => call('GET', `/subscribers/${id}`)
export const updateSubscriber = (id: string, body: unknown) => call('PUT', `/subscribers/${id}`, body)
export const listSubscribers = (page = 1, limit = 20) => call('GET', `/subscribers?page=${page}&limit=${limit}`)
