// The application code under test: it knows the messaging API's real base URL and nothing
// about sendbox. The tests beside it point MSW at that same URL.

export const API_BASE_URL = process.env.MESSAGING_API_URL ?? 'https://api.example.com/v1'

/** The API refused the request; `retryAfter` is set on 429. */
export class MessagingError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message)
  }
}

async function post(path: string, apiKey: string, body: unknown): Promise<{ message_id: string }> {
  const response = await fetch(`${API_BASE_URL}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = (await response.json()) as { message_id: string; error?: { code: string; message: string } }
  if (!response.ok) {
    const retryAfter = response.headers.get('Retry-After')
    throw new MessagingError(
      response.status,
      json.error?.code ?? 'unknown',
      json.error?.message ?? '',
      retryAfter ? Number(retryAfter) : undefined,
    )
  }
  return json
}

/**
 * Tells a customer that their order shipped: an email, and an SMS when there is a phone number.
 * A 5xx is retried once; anything else is the caller's problem.
 */
export async function notifyOrderShipped(
  apiKey: string,
  order: { id: string; email: string; phone?: string; name: string },
): Promise<string[]> {
  const sendOnce = async <T>(send: () => Promise<T>): Promise<T> => {
    try {
      return await send()
    } catch (error) {
      if (error instanceof MessagingError && error.status >= 500) return send()
      throw error
    }
  }
  const ids = [
    (
      await sendOnce(() =>
        post('/email/send', apiKey, {
          to: order.email,
          subject: `Order ${order.id} has shipped`,
          html: `<p>Hi ${order.name}, order <b>${order.id}</b> is on its way.</p>`,
        }),
      )
    ).message_id,
  ]
  if (order.phone) {
    ids.push(
      (await sendOnce(() => post('/sms/send', apiKey, { to: order.phone, message: `Order ${order.id} has shipped.` })))
        .message_id,
    )
  }
  return ids
}
