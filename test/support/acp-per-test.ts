/**
 * The teardown every `opencode acp` test file shares: what a test starts through {@link acpPerTest}'s
 * functions (agents spawned by `startAcpAgent` of test/acp/acp-client.ts, loopback fake providers)
 * is stopped after it, passed or failed.
 */
import { afterEach } from 'vitest';
import { startAcpAgent, type AcpAgentProcess, type StartOptions } from '../acp/acp-client.js';
import { startFakeProvider, type FakeProvider, type FakeProviderOptions, type FakeTurn } from './fake-provider.js';

/** Starters whose processes and servers are stopped after each test. */
export interface AcpPerTest {
  /** `startAcpAgent(options)`: the agent is killed (SIGKILL) and its exit awaited after the test */
  startAgent(options: StartOptions): AcpAgentProcess;
  /** `startFakeProvider(turns, options)`: the fake is closed after the test, once the agents are gone */
  startFake(turns?: FakeTurn[], options?: FakeProviderOptions): Promise<FakeProvider>;
}

/**
 * Call once at the top of a test file: registers an `afterEach` that kills every agent started
 * through the returned {@link AcpPerTest.startAgent} (a test that ends early, failed or not, may
 * leave one mid-turn; closing stdin alone would wait for the turn) and then closes every fake
 * provider started through {@link AcpPerTest.startFake}.
 */
export function acpPerTest(): AcpPerTest {
  const agents: AcpAgentProcess[] = [];
  const fakes: FakeProvider[] = [];
  afterEach(async () => {
    for (const agent of agents.splice(0)) {
      agent.child.kill('SIGKILL');
      await agent.close();
    }
    for (const fake of fakes.splice(0)) await fake.close();
  });
  return {
    startAgent(options) {
      const agent = startAcpAgent(options);
      agents.push(agent);
      return agent;
    },
    async startFake(turns, options) {
      const fake = await startFakeProvider(turns, options);
      fakes.push(fake);
      return fake;
    },
  };
}
