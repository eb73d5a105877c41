import type { CapturedMessage } from '../contract/captured-message.js'

/**
 * A captured message's JSON text, made once per message object and shared by every answer that
 * sends it: a thousand long-polls matched by one 1 MiB email each serialised their own copy
 * (issue 27, N2: 100 waiters → 1 GB RSS, health blocked 3.9 s). A status step makes a new
 * message object, so an entry never goes stale; entries go with their message (WeakMap).
 */
const texts = new WeakMap<CapturedMessage, string>()

/** `JSON.stringify(message)`, once per message object. */
export function messageJson(message: CapturedMessage): string {
  let text = texts.get(message)
  if (text === undefined) {
    text = JSON.stringify(message)
    texts.set(message, text)
  }
  return text
}
