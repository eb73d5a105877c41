/**
 * Reading credentials off a request, in one place for the guard and the standalone transport
 * (which decides from the headers alone whether to read a body).
 */

/** `Authorization: Bearer <token>`: the scheme in any case, one token, nothing after it. */
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i

/** The last header {@link bearerToken} read, and its token: a client sends the same one on every request, and the transport and the guard both read it. */
let lastHeader: string | undefined
let lastToken: string | undefined

/** The token of an `Authorization: Bearer …` header, or undefined for none or another scheme. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  if (!authorization) return undefined
  if (authorization !== lastHeader) {
    lastToken = BEARER.exec(authorization)?.[1]
    lastHeader = authorization
  }
  return lastToken
}

/** The admin token a request offers: `X-Sendbox-Admin-Token`, else the bearer token. */
export function offeredAdminToken(header: (name: string) => string | null | undefined): string | undefined {
  return header('x-sendbox-admin-token') ?? bearerToken(header('authorization'))
}
