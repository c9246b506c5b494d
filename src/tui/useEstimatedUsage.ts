/**
 * Whether the token counts of a session are estimates: a provider call of it in this process reported
 * no usage, so the agent counted about 4 characters a token (agent/reply-end.ts). The status bar marks
 * the context size and the cost with `~` then.
 */
import { useEffect, useState } from 'react';
import type { AgentEvents } from '../agent/events.js';
import type { EventBus } from '../events/bus.js';

/** true once a call of `sessionId` came back without usage */
export function useEstimatedUsage(bus: EventBus<AgentEvents>, sessionId: string | undefined): boolean {
  const [estimated, setEstimated] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(
    () =>
      bus.on('provider.call', (call) => {
        if (call.usageEstimated)
          setEstimated((known) => (known.has(call.sessionId) ? known : new Set(known).add(call.sessionId)));
      }),
    [bus],
  );
  return sessionId !== undefined && estimated.has(sessionId);
}
