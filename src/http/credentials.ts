/**
 * Reading credentials off a request, in one place for the guard and the standalone transport
 * (which decides from the headers alone whether to read a body).
 */

/** `Authorization: Bearer <token>`: the scheme in any case, one token, nothing after it. */
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i

/** The token of an `Authorization: Bearer …` header, or undefined for none or another scheme. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  return authorization ? BEARER.exec(authorization)?.[1] : undefined
}

/** The admin token a request offers: `X-Sendbox-Admin-Token`, else the bearer token. */
export function offeredAdminToken(header: (name: string) => string | null | undefined): string | undefined {
  return header('x-sendbox-admin-token') ?? bearerToken(header('authorization'))
}
