import { checkReportSchema } from '../contract/checks.js'
import { enumParam, flagParam } from '../contract/query.js'
import { ApiError } from '../domain/errors.js'
import { controlRoute, type Route } from './route.js'
import { visibleOne } from './viewer-scope.js'

/** The check report of a captured message (issue 35; docs/checks.md). */
export const sandboxCheckRoutes: Route[] = [
  controlRoute({
    method: 'GET',
    path: '/__sandbox/messages/{id}/checks',
    operationId: 'getMessageChecks',
    summary: 'The check report of a captured message',
    description:
      "Judges the message as a QA would: email client compatibility (caniemail), links, images, accessibility, size and spam (`--spamassassin`); SMS encoding, segments, sender and links; WhatsApp parameters Meta rejects. Computed when first asked for (never on the send path) and kept with the message; `refresh=1` computes it again. `links=live` requests each distinct link and image (at most 8 at once, 5 s each) and adds the broken ones; that report is kept too. `score` is 100 when nothing is found (docs/checks.md has the formula). A team token sees its own accounts' messages only.",
    query: {
      links: enumParam(
        'links',
        ['live', 'static'],
        '`live`: request each link and image and report the broken ones (default `static`: no network).',
      ),
      refresh: flagParam('refresh', 'Compute the report again instead of answering the kept one.'),
    },
    response: checkReportSchema,
    answers: [
      {
        code: 'too_many_clients',
        description:
          'As many checks as the server queues are running or waiting (`too_many_clients`); `Retry-After` says when to try again.',
      },
    ],
    team: true,
    resolve: async ({ sandbox, params, query, viewer }) => {
      const message = visibleOne(viewer, sandbox.outbox.get(params.id))
      if (!message)
        throw new ApiError(
          'not_found',
          `No captured message with id "${params.id}". It may have been cleared or evicted by the outbox cap.`,
        )
      return {
        body: await sandbox.checkReports.report(message, { links: query.links, refresh: query.refresh === true }),
      }
    },
  }),
]
