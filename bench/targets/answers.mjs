/**
 * The answers the bare targets (baseline, MSW floor) give: the same JSON texts the sandbox
 * answered for the same requests, captured at the start of the run and passed in a file.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

/** `--port N --answers FILE` of a bare target. */
export function targetArgs() {
  const { values } = parseArgs({ options: { port: { type: 'string' }, answers: { type: 'string' } }, strict: false })
  const answers = JSON.parse(readFileSync(String(values.answers), 'utf8'))
  return { port: Number(values.port), answers }
}

/**
 * Which captured answer a path gets: the send, the list page or the subscriber. A few string
 * tests, so the lookup costs nothing next to what is measured.
 */
export function answerFor(answers, method, path) {
  if (method === 'POST') return answers.send
  if (path.startsWith('/v1/subscribers/')) return answers.byId
  return answers.list
}
