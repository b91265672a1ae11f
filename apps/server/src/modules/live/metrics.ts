// The live channel's metrics (docs/operations.md "Live updates"), in the instance's registry.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'

export type LiveMetrics = ReturnType<typeof liveMetrics>

export function liveMetrics(registry: Registry) {
  const registers = [registry]
  return {
    connections: new Gauge({
      name: 'solpledge_live_connections',
      help: 'Open live-channel connections on this instance, by who is signed in (anonymous, user, admin)',
      labelNames: ['as'],
      registers,
    }),
    messages: new Counter({
      name: 'solpledge_live_messages_total',
      help: 'Events sent to live-channel clients by this instance, by topic',
      labelNames: ['topic'],
      registers,
    }),
    closed: new Counter({
      name: 'solpledge_live_closed_total',
      help:
        'Live-channel connections this instance closed or refused, by reason: too_slow (unsent messages past ' +
        'LIVE_MAX_BUFFER_BYTES), heartbeat (no pong), too_many (per session or address), session_invalid, protocol',
      labelNames: ['reason'],
      registers,
    }),
    resets: new Counter({
      name: 'solpledge_live_resets_total',
      help: 'Times subscribers had to take a snapshot because the outbox no longer held the events they missed',
      registers,
    }),
    notifyLag: new Histogram({
      name: 'solpledge_live_notify_lag_seconds',
      help: 'From the commit of an outbox row to this instance reading it after its NOTIFY',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
  }
}
