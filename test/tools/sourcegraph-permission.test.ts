/**
 * sourcegraph sends the model's query to a server, so it asks first, as fetch does with its URL: the
 * request shows the query and the endpoint; denied, nothing is sent; "allow for session" covers later
 * searches of the session on that endpoint, and a new session asks again. A loopback fake of the
 * GraphQL endpoint and a real PermissionService.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { permissionRules } from '../../src/permission/rules.js';
import { PermissionService } from '../../src/permission/service.js';
import type { PermissionAskInput, PermissionDecision, PermissionSubject } from '../../src/permission/types.js';
import { sourcegraphTool } from '../../src/tools/sourcegraph.js';
import { runTool, toolContext } from '../support/tool-context.js';

let server: http.Server;
let endpoint: string;
let host: string;
let searches = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      searches++;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          data: { search: { results: { matchCount: 0, resultCount: 0, limitHit: false, results: [] } } },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint = `http://${host}/.api/graphql`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  searches = 0;
});

/** Runs searches in `sessionId` on one service; each question is recorded and answered with the next of `answers`. */
function searcher(answers: PermissionDecision[]) {
  const service = new PermissionService('/tmp', { rules: permissionRules(undefined) });
  const asked: string[] = [];
  service.onRequest((request) => {
    asked.push(request.description);
    service.respond(request.id, answers.shift() ?? 'deny');
  });
  const search = (sessionId: string, query: string) =>
    runTool(
      sourcegraphTool,
      { query },
      {
        ...toolContext('/tmp'),
        sessionId,
        sourcegraphUrl: endpoint,
        askPermission: (input: PermissionAskInput, subject?: PermissionSubject) =>
          service.request(sessionId, 'sourcegraph', { ...input, subject }),
      },
    );
  return { asked, search };
}

describe('sourcegraph asks before it sends a query', () => {
  it('denied: nothing is sent, and the request showed the query and the endpoint', async () => {
    const { asked, search } = searcher(['deny']);
    const result = await search('s1', 'lang:go context.WithTimeout');
    expect(asked).toEqual([`Send a code search to ${host}: lang:go context.WithTimeout`]);
    expect(result.isError).toBe(true);
    expect(searches).toBe(0);
  });

  it('allowed for the session: later searches of the session go unasked; another session asks again', async () => {
    const { asked, search } = searcher(['allow_session', 'deny']);
    expect((await search('s1', 'first')).isError).toBe(false);
    expect((await search('s1', 'second')).isError).toBe(false);
    expect(asked).toEqual([`Send a code search to ${host}: first`]);
    expect(searches).toBe(2);
    await search('s2', 'third');
    expect(asked).toEqual([`Send a code search to ${host}: first`, `Send a code search to ${host}: third`]);
    expect(searches).toBe(2);
  });
});
