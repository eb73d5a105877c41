/**
 * Preloaded (`--import`) into the CLI by promoted-bytes.mjs: V8's sampling heap profiler, keeping
 * the samples of objects that lived through a young collection (collected later by a full one, or
 * still alive), and dropping those the young collections freed. SIGUSR2 starts it, SIGUSR1 stops
 * it and writes the profile to /tmp/promoted-bytes-PID.json. `ALL_ALLOCATIONS=1`: every sample, the
 * young collections' garbage included.
 */
import { Session } from 'node:inspector'
import { writeFileSync } from 'node:fs'

const session = new Session()
session.connect()
process.on('SIGUSR2', () => {
  session.post('HeapProfiler.enable', () =>
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.ALL_ALLOCATIONS === '1',
    }),
  )
})
process.on('SIGUSR1', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(`/tmp/promoted-bytes-${process.pid}.json`, JSON.stringify(result.profile))
  })
})
