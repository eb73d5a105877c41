/**
 * The email HTML checks on a worker thread (issue 35): the static pass and client compatibility,
 * CPU work on up to 1 MiB of HTML, kept off the event loop that answers requests. Started by
 * check-worker-pool.ts; one message in (`{ id, html, emailClients }`), one out (`{ id, result }`
 * or `{ id, error }`).
 */
import { parentPort } from 'node:worker_threads'
import { inlineHtmlChecker } from '../domain/checks/email/checks.js'

interface Job {
  id: number
  html: string
  emailClients: string[]
}

parentPort?.on('message', (job: Job) => {
  inlineHtmlChecker(job.html, job.emailClients).then(
    (result) => parentPort!.postMessage({ id: job.id, result }),
    (error: unknown) =>
      parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  )
})
