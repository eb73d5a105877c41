/**
 * What the standalone server refuses from a request's line and headers alone, before its body is
 * read or a handler runs: a Host that does not name it, a method fetch cannot carry, a preflight,
 * a control change from a foreign page or with a form body, and a request the handlers would
 * refuse for its credentials (whose body is then never read).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sameSecret } from '../domain/admin-token.js'
import { teamViewer } from '../domain/team-tokens.js'
import { bearerToken, offeredAdminToken } from '../http/credentials.js'
import type { Sandbox } from '../index.js'
import { preflightHeaders, refuse } from './answer-write.js'
import { announcesBody } from './body-read.js'
import type { OriginPolicy } from './origin-policy.js'

/** Methods a Fetch `Request` cannot carry (fetch forbids them); answered 400 by the transport. */
const FORBIDDEN_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT'])

/** Methods that change sandbox state: Origin and Content-Type checks under `/__sandbox`. */
export const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH'])

const JSON_CONTENT_TYPE = /^application\/json[ \t]*(?:;|$)/i

/**
 * Whether the handlers would refuse this request from its headers alone (no valid API key under
 * the API path, no admin token when one is set under `/__sandbox`): then its body is not read —
 * a keyless client cannot make the server buffer anything.
 */
export function refusedFromHeaders(
  sandbox: Sandbox,
  apiPrefix: string,
  control: boolean,
  pathname: string,
  req: IncomingMessage,
): boolean {
  if (!control && (pathname === apiPrefix || pathname.startsWith(`${apiPrefix}/`))) {
    const token = bearerToken(req.headers.authorization)
    return token === undefined || sandbox.authenticate(token) === undefined
  }
  if (control && (sandbox.adminToken !== undefined || sandbox.teamTokens.length > 0)) {
    const given = offeredAdminToken((name) => {
      const value = req.headers[name]
      return typeof value === 'string' ? value : undefined
    })
    const admin = given !== undefined && sandbox.adminToken !== undefined && sameSecret(given, sandbox.adminToken)
    return given === undefined || (!admin && teamViewer(sandbox.teamTokens, given) === undefined)
  }
  return false
}

/**
 * What the transport refuses before anything else, answered here (the status), or undefined: a
 * Host that does not name this server (DNS rebinding), a method fetch cannot carry, a preflight
 * (answered 204), a target that is not a path.
 */
export function refusedAtTheDoor(
  policy: OriginPolicy,
  req: IncomingMessage,
  res: ServerResponse,
  cors: Readonly<Record<string, string>>,
): number | undefined {
  const method = req.method ?? 'GET'
  const host = req.headers.host
  if (host === undefined ? req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 : !policy.allowsHost(host)) {
    return host === undefined
      ? refuse(
          res,
          'invalid_request',
          'HTTP/1.1 requests must carry a Host header, like `Host: 127.0.0.1:4010`.',
          {},
          true,
        )
      : refuse(
          res,
          'forbidden_host',
          `The Host header "${host.slice(0, 100)}" does not name this server. It answers loopback names (localhost, 127.0.0.1), IP addresses and its bound host; start it with \`--allowed-host NAME\` to add a name (this check stops DNS rebinding).`,
          {},
          announcesBody(req),
        )
  }
  if (FORBIDDEN_METHODS.has(method)) {
    return refuse(
      res,
      'invalid_request',
      `The ${method} method is not supported. The API uses GET, POST, PUT and DELETE.`,
      cors,
      announcesBody(req),
    )
  }
  if (method === 'OPTIONS') {
    res.writeHead(204, preflightHeaders(policy, req))
    res.end()
    return 204
  }
  if (!(req.url ?? '/').startsWith('/'))
    return refuse(res, 'not_found', 'Request target must be a path.', cors, announcesBody(req))
  return undefined
}

/** A change to the sandbox controls from a page whose origin is not allowed, or with a form-style body: refused (the status), else undefined. */
export function refusedControlChange(
  policy: OriginPolicy,
  req: IncomingMessage,
  res: ServerResponse,
  cors: Readonly<Record<string, string>>,
): number | undefined {
  const requestOrigin = req.headers.origin
  if (requestOrigin !== undefined && !policy.allowsOrigin(requestOrigin, req.headers.host)) {
    return refuse(
      res,
      'forbidden_origin',
      `Pages from ${requestOrigin.slice(0, 100)} may not change the sandbox. Allowed: loopback origins (http://localhost:*, http://127.0.0.1:*) and those given with \`--cors-origin\`.`,
      cors,
      announcesBody(req),
    )
  }
  const contentType = req.headers['content-type']
  if (contentType !== undefined && !JSON_CONTENT_TYPE.test(contentType)) {
    return refuse(
      res,
      'invalid_content_type',
      `Sandbox controls take JSON bodies only: send \`Content-Type: application/json\` (got "${contentType.slice(0, 100)}").`,
      cors,
      announcesBody(req),
    )
  }
  return undefined
}
