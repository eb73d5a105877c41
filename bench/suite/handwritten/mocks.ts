/**
 * Hand-written msw handlers for the same service: the baseline a team writes without sendbox.
 * They answer the same JSON shapes and keep what was sent in an array the tests read.
 */
import { http, HttpResponse } from 'msw'
import { API } from '../app.js'

export interface SentMessage {
  channel: 'email' | 'sms' | 'whatsapp'
  to: string
  body: Record<string, any>
}

export interface Subscriber {
  id: string
  email: string | null
  phone: string | null
  first_name: string | null
  tags: string[]
  created_at: string
  updated_at: string
}

let sequence = 0

export function messagingHandlers(sent: SentMessage[]) {
  const send = (channel: SentMessage['channel']) =>
    http.post(`${API}/${channel}/send`, async ({ request }) => {
      const body = (await request.json()) as Record<string, any>
      sent.push({ channel, to: body.to, body })
      return HttpResponse.json({ success: true, message_id: `msg_${++sequence}`, status: 'queued' })
    })
  return [send('email'), send('sms'), send('whatsapp')]
}

/** The first link of an email's HTML, an SMS or a WhatsApp template's parameters. */
export function firstLink(message: SentMessage | undefined): string | undefined {
  if (!message) return undefined
  if (message.channel === 'email') return /href="([^"]+)"/.exec(message.body.html)?.[1]?.replaceAll('&amp;', '&')
  const text = message.channel === 'sms' ? message.body.message : Object.values(message.body.parameters).join(' ')
  return /https?:\/\/\S+/.exec(text)?.[0]
}

/** The first 4–8 digit code of an email, an SMS or a WhatsApp template's parameters. */
export function firstCode(message: SentMessage | undefined): string | undefined {
  if (!message) return undefined
  const text =
    message.channel === 'email'
      ? message.body.html
      : message.channel === 'sms'
        ? message.body.message
        : Object.values(message.body.parameters).join(' ')
  return /\b(\d{4,8})\b/.exec(text)?.[1]
}

const error = (status: number, code: string, message: string) =>
  HttpResponse.json({ error: { code, message } }, { status })

export function subscriberHandlers(subscribers: Map<string, Subscriber>) {
  return [
    http.post(`${API}/subscribers`, async ({ request }) => {
      const body = (await request.json()) as Partial<Subscriber>
      if (body.email == null && body.phone == null)
        return error(400, 'missing_parameter', 'A subscriber needs at least one of `email` and `phone`.')
      if (body.email && [...subscribers.values()].some((s) => s.email?.toLowerCase() === body.email!.toLowerCase())) {
        return error(400, 'duplicate_email', `A subscriber with email "${body.email}" already exists in this account.`)
      }
      const at = new Date().toISOString()
      const subscriber: Subscriber = {
        id: `sub_${++sequence}`,
        email: body.email ?? null,
        phone: body.phone ?? null,
        first_name: body.first_name ?? null,
        tags: [...new Set(body.tags ?? [])],
        created_at: at,
        updated_at: at,
      }
      subscribers.set(subscriber.id, subscriber)
      return HttpResponse.json(subscriber)
    }),
    http.get(`${API}/subscribers/:id`, ({ params }) => {
      const subscriber = subscribers.get(String(params.id))
      return subscriber ? HttpResponse.json(subscriber) : error(404, 'not_found', `No subscriber ${String(params.id)}.`)
    }),
    http.put(`${API}/subscribers/:id`, async ({ params, request }) => {
      const subscriber = subscribers.get(String(params.id))
      if (!subscriber) return error(404, 'not_found', `No subscriber ${String(params.id)}.`)
      const patch = (await request.json()) as Partial<Subscriber>
      const next = {
        ...subscriber,
        ...patch,
        tags: patch.tags ? [...new Set(patch.tags)] : subscriber.tags,
        updated_at: new Date().toISOString(),
      }
      subscribers.set(next.id, next)
      return HttpResponse.json(next)
    }),
    http.get(`${API}/subscribers`, ({ request }) => {
      const url = new URL(request.url)
      const page = Number(url.searchParams.get('page') ?? 1)
      const limit = Number(url.searchParams.get('limit') ?? 20)
      const all = [...subscribers.values()]
      return HttpResponse.json({
        data: all.slice((page - 1) * limit, page * limit),
        pagination: { page, limit, total: all.length, pages: Math.ceil(all.length / limit) },
      })
    }),
  ]
}
