/**
 * `notifications/tools/list_changed` makes us list again and bring the registry in step: new tools
 * registered, removed ones unregistered, unchanged ones kept as they were.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { McpService } from '../../src/mcp/service.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { toolContext } from '../support/tool-context.js';
import { serverConfig, startHttpFixture, startService, stdioFixture, tempDir, whenServer } from './fixture.js';

let service: McpService | undefined;
let stopHttp: (() => void) | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  stopHttp?.();
  stopHttp = undefined;
});

describe.each(['stdio', 'http'] as const)('tools/list_changed over %s', (transport) => {
  it('adds and removes tools as the server announces changes', async () => {
    const registry = new ToolRegistry();
    const cwd = tempDir();
    let config = stdioFixture();
    if (transport === 'http') {
      const http = await startHttpFixture();
      stopHttp = http.close;
      config = serverConfig({ type: 'http', url: http.url });
    }
    service = startService({ servers: { test: config }, registry, cwd });
    await whenServer(service, 'test', (s) => s.status === 'connected');
    expect(registry.get('test_extra')).toBeUndefined();
    const echo = registry.get('test_echo');

    expect((await registry.get('test_toggle_extra')!.run({}, toolContext(cwd))).output).toBe('extra on');
    const added = await whenServer(service, 'test', (s) => s.tools.includes('test_extra'));
    expect(added.tools).toHaveLength(12);
    expect((await registry.get('test_extra')!.run({}, toolContext(cwd))).output).toBe('extra tool here');
    // an unchanged tool is the same object: no churn in the registry
    expect(registry.get('test_echo')).toBe(echo);

    await registry.get('test_toggle_extra')!.run({}, toolContext(cwd));
    await whenServer(service, 'test', (s) => !s.tools.includes('test_extra'));
    expect(registry.get('test_extra')).toBeUndefined();
    expect(service.logLines('test').filter((l) => l.text.startsWith('tools changed'))).toHaveLength(2);
  });
});
