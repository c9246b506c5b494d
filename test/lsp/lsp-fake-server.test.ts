/**
 * The LSP service against a fake server speaking real LSP over stdio: the handshake (requests made
 * during initialize answered), percent-encoded URIs, versions and didSave, the diagnostics a change
 * introduced versus those already there, pull diagnostics, the bounded open set, and the watcher.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LspService } from '../../src/lsp/service.js';
import { formatChangeReport } from '../../src/lsp/diagnostics.js';
import { pathToUri } from '../../src/lsp/uri.js';
import { fakePlan, readLog, tempProject, until } from './fake-server.js';

let service: LspService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

function start(mode: string, name = 'project', options: { maxOpenDocuments?: number; watch?: boolean } = {}) {
  const { dir, logFile } = tempProject(name);
  service = new LspService({
    root: dir,
    servers: [fakePlan(mode, logFile)],
    env: process.env,
    watch: options.watch ?? false,
    maxOpenDocuments: options.maxOpenDocuments,
  });
  return { dir, logFile, service };
}

describe('LSP handshake', () => {
  it('answers the requests a server makes during and after initialize, with percent-encoded URIs of a path with spaces and non-ASCII', async () => {
    const { dir, logFile, service } = start('normal', 'my project é');
    const file = join(dir, 'a b ü.fk');
    writeFileSync(file, 'ok\n');
    const report = await service.changed([{ path: file, text: 'ERROR: bad thing\n' }]);
    const log = readLog(logFile);
    const rootUri = `file://${dir.split('/').map(encodeURIComponent).join('/')}`;
    expect(rootUri).toContain('my%20project%20%C3%A9');
    expect(log[0]).toMatchObject({
      method: 'initialize',
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'my project é' }],
    });
    expect(log.find((e) => e.answer === 'workspace/configuration')?.result).toEqual([{}]);
    await until('registerCapability answered', () =>
      readLog(logFile).some((e) => e.answer === 'window/workDoneProgress/create'),
    );
    expect(readLog(logFile).find((e) => e.answer === 'client/registerCapability')?.result).toBeNull();
    expect(log.find((e) => e.method === 'didOpen')).toMatchObject({
      uri: pathToUri(file),
      version: 1,
      languageId: 'fake',
    });
    expect(pathToUri(file)).toBe(`${rootUri}/a%20b%20%C3%BC.fk`);
    expect(report!.added.map((d) => [d.path, d.line, d.column, d.severity, d.code, d.message])).toEqual([
      [file, 1, 1, 'error', 'E1', 'bad thing'],
    ]);
    expect(service.statuses()).toEqual([
      { language: 'fake', command: process.execPath, state: 'ready', source: 'config', why: 'configured in lsp.fake' },
    ]);
  });
});

describe('LSP diagnostics after a change', () => {
  it('sends the next version with didChange and didSave, and reports only the problems the change introduced', async () => {
    const { dir, logFile, service } = start('normal');
    const file = join(dir, 'x.fk');
    const before = 'WARN: old warning\nERROR: old error\nfine\n';
    service.viewed(file, before, 'session-1');
    await until('the first report', () => service.counts().errors === 1);
    const report = (await service.changed([{ path: file, text: `${before}ERROR: new error\n` }]))!;
    const entries = readLog(logFile).filter((e) => e.method === 'didChange' || e.method === 'didSave');
    expect(entries).toEqual([
      expect.objectContaining({ method: 'didChange', uri: pathToUri(file), version: 2 }),
      expect.objectContaining({ method: 'didSave', uri: pathToUri(file) }),
    ]);
    expect(report.added.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual(['4:1 new error']);
    expect(report.kept.map((d) => d.message).sort()).toEqual(['old error', 'old warning']);
    expect(formatChangeReport(report)).toBe(
      `\n<file_diagnostics>\nError: ${file}:4:1 [fake][E1] new error\n</file_diagnostics>\n` +
        '<diagnostic_summary>\nCurrent file: 1 error, 0 warnings introduced by this change\n' +
        'Already there before this change (not listed): 1 error, 1 warning\n</diagnostic_summary>\n',
    );
    // fixing it: nothing new, and the summary counts what stays
    const fixed = (await service.changed([{ path: file, text: before }]))!;
    expect(fixed.added).toEqual([]);
    expect(formatChangeReport(fixed)).toBe(
      '\n<diagnostic_summary>\nCurrent file: 0 errors, 0 warnings introduced by this change\nAlready there before this change (not listed): 1 error, 1 warning\n</diagnostic_summary>\n',
    );
  });

  it('a problem that only moved lines is not new', async () => {
    const { dir, service } = start('normal');
    const file = join(dir, 'x.fk');
    service.viewed(file, 'ERROR: same\n', 's');
    await until('the first report', () => service.counts().errors === 1);
    const report = (await service.changed([{ path: file, text: 'new line\nnew line\nERROR: same\n' }]))!;
    expect(report.added).toEqual([]);
    expect(report.kept.map((d) => d.line)).toEqual([3]);
  });

  it('pulls diagnostics (textDocument/diagnostic) from a server that offers it', async () => {
    const { dir, logFile, service } = start('pull');
    const file = join(dir, 'p.fk');
    const report = (await service.changed([{ path: file, text: 'x\nWARN: careful\n' }]))!;
    expect(
      readLog(logFile)
        .filter((e) => e.method === 'textDocument/diagnostic')
        .map((e) => e.uri),
    ).toEqual([pathToUri(file)]);
    expect(report.added.map((d) => `${d.severity} ${d.line}:${d.column} ${d.message}`)).toEqual([
      'warning 2:1 careful',
    ]);
  });

  it('files no server serves get no report', async () => {
    const { dir, service } = start('normal');
    expect(await service.changed([{ path: join(dir, 'a.txt'), text: 'ERROR: x' }])).toBeUndefined();
    expect(service.statuses()[0]!.state).toBe('idle');
  });
});

describe('LSP documents', () => {
  it('closes the least recently used documents beyond the cap, so the open set stays bounded', async () => {
    const { dir, logFile, service } = start('normal', 'project', { maxOpenDocuments: 3 });
    const files = ['1', '2', '3', '4', '5'].map((n) => join(dir, `${n}.fk`));
    for (const f of files) await service.changed([{ path: f, text: 'ok\n' }]);
    expect(service.openDocuments('fake')).toEqual(files.slice(2));
    expect(
      readLog(logFile)
        .filter((e) => e.method === 'didClose')
        .map((e) => e.uri),
    ).toEqual([pathToUri(files[0]!), pathToUri(files[1]!)]);
  });

  it('tells the server about files changed outside the tools (watcher, .gitignore honoured) and re-sends open documents that changed', async () => {
    const { dir, logFile, service } = start('normal', 'project', { watch: true });
    writeFileSync(join(dir, '.gitignore'), 'ignored/\n*.log\n');
    const file = join(dir, 'w.fk');
    writeFileSync(file, 'ok\n');
    await service.changed([{ path: file, text: 'ok\n' }]);
    // what bash would do: change the open file, create another, write an ignored one
    appendFileSync(file, 'ERROR: from bash\n');
    writeFileSync(join(dir, 'new.fk'), 'x\n');
    writeFileSync(join(dir, 'out.log'), 'x\n');
    await until('the watched change', () => service.counts().errors === 1);
    const watched = readLog(logFile)
      .filter((e) => e.method === 'didChangeWatchedFiles')
      .flatMap((e) => e.changes);
    expect(watched).toContainEqual({ uri: pathToUri(file), type: 2 });
    expect(watched).toContainEqual({ uri: pathToUri(join(dir, 'new.fk')), type: 1 });
    expect(watched.some((c: { uri: string }) => c.uri.endsWith('out.log'))).toBe(false);
    expect(
      readLog(logFile)
        .filter((e) => e.method === 'didChange')
        .map((e) => e.version),
    ).toEqual([2]);
  });

  it('shuts servers down with shutdown and exit when closed', async () => {
    const { dir, logFile, service: s } = start('normal');
    await s.changed([{ path: join(dir, 'a.fk'), text: 'ok' }]);
    await s.close();
    service = undefined;
    expect(
      readLog(logFile)
        .slice(-2)
        .map((e) => e.method),
    ).toEqual(['shutdown', 'exit']);
  });
});
