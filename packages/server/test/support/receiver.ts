import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; apiVersion: string; createdAt: string; workspaceId: string; projectId: string | null; actor: { id: string; name: string }; data: Record<string, unknown> };
}

/**
 * A webhook receiver on 127.0.0.1: records every call and answers with `respond()`'s
 * status (200 unless a test changes it).
 */
export async function startReceiver() {
  const calls: ReceivedCall[] = [];
  let respond: (call: ReceivedCall) => { status: number; headers?: Record<string, string>; body?: string } = () => ({ status: 200 });
  const server = http.createServer((request, response) => {
    let rawBody = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (rawBody += chunk));
    request.on('end', () => {
      const call: ReceivedCall = { headers: request.headers, rawBody, body: JSON.parse(rawBody) as ReceivedCall['body'] };
      calls.push(call);
      const answer = respond(call);
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      response.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    calls,
    answer(fn: typeof respond) {
      respond = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
