/**
 * Custom tools in the TUI, against a real app and the fake provider: loaded after the
 * store subscribes (problems reach the logs page), the sidebar lists what loaded and what failed, the
 * permission dialog shows the exact argv a declarative tool will run, and its call is titled with its source.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Sidebar } from '../../src/tui/components/Sidebar.js';
import { contentLines } from '../../src/tui/dialogs/PermissionDialog.js';
import { toolTitle } from '../../src/tui/render/tool-view.js';
import { ChatStore } from '../../src/tui/state/chat-store.js';
import { THEMES } from '../../src/tui/themes.js';
import { startTuiApp, type TuiApp } from '../support/tui-app.js';
import { until } from '../support/chat-store-until.js';

let t: TuiApp | undefined;
let store: ChatStore | undefined;
afterEach(async () => {
  store?.dispose();
  await t?.close();
  t = undefined;
  store = undefined;
});

const strip = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('custom tools in the TUI', () => {
  it('loads them once the store listens; warnings on the logs page; the dialog shows the argv; the call names its source', async () => {
    t = await startTuiApp([
      { toolCalls: [{ id: 'toolu_st', name: 'status', input: { service: 'checkout; rm -rf ~' } }] },
      { text: 'ok' },
    ]);
    const tools = join(t.dir, '.opencode', 'tools');
    mkdirSync(tools, { recursive: true });
    writeFileSync(
      join(tools, 'status.yaml'),
      'name: status\ndescription: Service status.\nparameters:\n  properties:\n    service: { description: which }\ncommand: [echo, status of, "{{service}}"]\n',
    );
    writeFileSync(join(tools, 'broken.yaml'), 'name: broken\ndescription: d\n');
    store = new ChatStore(t.services);
    const loaded = await until(store, (s) => s.customTools !== undefined);
    expect(loaded.customTools).toEqual({
      loaded: [{ name: 'status', source: 'project', origin: '.opencode/tools/status.yaml' }],
      hooks: [],
      failed: ['.opencode/tools/broken.yaml: command: missing (give command as an argv array, or script as a path)'],
    });
    expect(loaded.logs.map((l) => [l.level, l.message])).toEqual([
      ['warn', '.opencode/tools/broken.yaml: command: missing (give command as an argv array, or script as a path)'],
      ['warn', '.opencode/tools/status.yaml: parameters.service.type: missing'],
    ]);

    const running = store.send('status?');
    const asking = await until(store, (s) => s.permissionQueue.length === 1);
    const request = asking.permissionQueue[0]!;
    expect(request).toMatchObject({
      toolName: 'status',
      description: "Run status: echo 'status of' 'checkout; rm -rf ~'",
    });
    expect(strip(contentLines(request, 80, THEMES.opencode).join('\n'))).toBe("echo 'status of' 'checkout; rm -rf ~'");
    store.answerPermission(request.id, 'allow');
    expect((await running)?.reason).toBe('end_turn');
    const done = await until(store, (s) => !s.busy);
    const call = done.items[1]!.tools[0]!;
    expect(toolTitle(call)).toBe('project › status');
    expect(call.result).toMatchObject({ content: 'status of checkout; rm -rf ~', isError: false });
  });

  it('the sidebar lists loaded custom tools with their source and the ones that failed', () => {
    const ui = render(
      <Sidebar
        width={60}
        height={40}
        version="0.1.0"
        cwd="/p"
        title="t"
        lspServers={[]}
        mcpServers={[]}
        customTools={{
          loaded: [{ name: 'status', source: 'project', origin: '.opencode/tools/status.yaml' }],
          failed: ['.opencode/plugins/x.ts: failed at load: boom'],
        }}
        modifiedFiles={[]}
      />,
    );
    const frame = ui.lastFrame() ?? '';
    ui.unmount();
    const lines = frame.split('\n').map((l) => l.trim());
    const at = lines.indexOf('Custom Tools');
    expect(lines.slice(at, at + 3)).toEqual([
      'Custom Tools',
      '● status project',
      '● .opencode/plugins/x.ts: failed at load: boom',
    ]);
  });

  it("a plugin's permission.ask allow answers in the person's place; a deny rule of .opencode.json still refuses", async () => {
    for (const [config, expected] of [
      [undefined, { content: 'deployed', isError: false }],
      [{ permission: { deploy: 'deny' } }, { isError: true }],
    ] as const) {
      t = await startTuiApp(
        [{ toolCalls: [{ id: 'toolu_dp', name: 'deploy', input: {} }] }, { text: 'ok' }],
        config ? { config } : {},
      );
      mkdirSync(join(t.dir, '.opencode', 'tools'), { recursive: true });
      mkdirSync(join(t.dir, '.opencode', 'plugins'), { recursive: true });
      writeFileSync(
        join(t.dir, '.opencode', 'tools', 'deploy.json'),
        JSON.stringify({ name: 'deploy', description: 'Deploys.', command: ['echo', 'deployed'] }),
      );
      writeFileSync(
        join(t.dir, '.opencode', 'plugins', 'auto.mjs'),
        "export default async () => ({ hooks: { 'permission.ask': async (request) => (request.tool === 'deploy' ? 'allow' : 'ask') } });\n",
      );
      store = new ChatStore(t.services);
      await until(store, (s) => s.customTools !== undefined);
      const asked: string[] = [];
      t.services.permission.onRequest((request) => asked.push(request.toolName));
      const finished = await store.send('deploy');
      expect(finished?.reason).toBe('end_turn');
      const done = await until(store, (s) => !s.busy && s.permissionQueue.length === 0);
      expect(done.items[1]!.tools[0]!.result).toMatchObject(expected);
      // with the rule, the service refused before anyone was asked; without it, the plugin answered
      expect(asked).toEqual(config ? [] : ['deploy']);
      store.dispose();
      store = undefined;
      await t.close();
      t = undefined;
    }
  });
});
