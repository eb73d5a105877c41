import { sameSecret } from './admin-token.js'
import { newId } from './random.js'

/**
 * Unguessable tokens that each open one message's HTML preview without the admin token
 * (`/__sandbox/messages/{id}/html?token=…`): made on first ask, forgotten with the message.
 */
export class PreviewTokens {
  private readonly tokens = new Map<string, string>()

  /** The message's token, made on first ask. */
  of(id: string): string {
    let token = this.tokens.get(id)
    if (token === undefined) {
      token = newId('pvw_')
      this.tokens.set(id, token)
    }
    return token
  }

  /** True when `token` is this message's token (compared in constant time). */
  check(id: string, token: string): boolean {
    const expected = this.tokens.get(id)
    return expected !== undefined && sameSecret(token, expected)
  }

  forget(id: string): void {
    this.tokens.delete(id)
  }

  clear(): void {
    this.tokens.clear()
  }
}
