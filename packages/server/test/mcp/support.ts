import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import type { TestServer } from '../support/test-server.js';

/** What the tests need of either SDK's client. */
export interface McpClient {
  sdk: '1.x' | '2.x';
  protocolVersion: string | undefined;
  /** What the server said it can do. */
  capabilities: { tools?: { listChanged?: boolean } } | undefined;
  listTools(): Promise<{ tools: { name: string; annotations?: Record<string, unknown>; inputSchema: unknown; outputSchema?: unknown; description?: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

export interface ToolResult<T = Record<string, unknown>> {
  isError?: boolean;
  structuredContent?: T;
  content: { type: string; text?: string }[];
}

const headersFor = (key: string) => ({ requestInit: { headers: { authorization: `Bearer ${key}` } } });

/** The 1.x SDK's client (`@modelcontextprotocol/sdk`): the 2025-11-25 `initialize` handshake. */
export async function connectLegacy(server: TestServer, key: string): Promise<McpClient> {
  const client = new LegacyClient({ name: 'gantry-test-1x', version: '1.0.0' });
  const transport = new LegacyTransport(new URL(`${server.url}/mcp`), headersFor(key));
  await client.connect(transport);
  return {
    sdk: '1.x',
    protocolVersion: transport.protocolVersion,
    capabilities: client.getServerCapabilities(),
    listTools: () => client.listTools(),
    callTool: (params) => client.callTool(params),
    close: () => client.close(),
  };
}

/** The 2.x SDK's client (`@modelcontextprotocol/client`), pinned to 2026-07-28: `server/discover`, no handshake. */
export async function connectModern(server: TestServer, key: string): Promise<McpClient> {
  const client = new ModernClient({ name: 'gantry-test-2x', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new ModernTransport(new URL(`${server.url}/mcp`), headersFor(key)));
  return {
    sdk: '2.x',
    protocolVersion: client.getNegotiatedProtocolVersion(),
    capabilities: client.getServerCapabilities(),
    listTools: () => client.listTools(),
    callTool: (params) => client.callTool(params),
    close: () => client.close(),
  };
}

/** Calls a tool and expects a successful result with structured content and a text summary. */
export async function callOk<T>(client: McpClient, name: string, args: Record<string, unknown> = {}): Promise<ToolResult<T> & { structuredContent: T }> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult<T>;
  expect(result.isError, `${client.sdk} ${name}: ${JSON.stringify(result.content).slice(0, 600)}`).toBeFalsy();
  expect(result.structuredContent).toBeDefined();
  expect(result.content[0]?.type).toBe('text');
  expect(result.content[0]?.text?.length).toBeGreaterThan(0);
  expect(JSON.parse(result.content[1]?.text ?? 'null'), 'the answer as JSON text').toEqual(result.structuredContent);
  return result as ToolResult<T> & { structuredContent: T };
}

/** Calls a tool and expects an error result, returning the API error its text carries. */
export async function callError(client: McpClient, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, JSON.stringify(result).slice(0, 600)).toBe(true);
  return JSON.parse(result.content[0]?.text ?? '') as { error: string; message: string; details?: { fields?: { path: string; message: string }[]; reason?: string } };
}

/** One raw JSON-RPC POST to /mcp, as a 2025-11-25 client sends it. */
export function rawPost(server: TestServer, message: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
  });
}
