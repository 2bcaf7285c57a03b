import { limits } from '@gantry/contract';
import type { JSONRPCErrorResponse, JSONRPCMessage, MessageExtraInfo, RequestId, Transport } from '@modelcontextprotocol/server';

/**
 * The JSON-RPC error code of a call refused for its request's budget: "Limit exceeded",
 * as the Ethereum JSON-RPC specification (EIP-1474) defines -32005 — a code of the range
 * JSON-RPC leaves to servers, used there for requests that would exceed a defined limit.
 */
export const limitExceededCode = -32005;

type Refusal = JSONRPCErrorResponse['error'];

/** The shape of a message, read without the SDK's schema guards (which parse a whole answer to say what it is). */
const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } => 'method' in message && 'id' in message;
const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } => !('method' in message) && 'id' in message;

function refusal(reason: 'calls' | 'answer_bytes', message: string, details: Record<string, number> = {}): Refusal {
  const limit = reason === 'calls' ? limits.mcpCallsPerRequest : limits.mcpAnswerBytesPerRequest;
  return { code: limitExceededCode, message: `limit exceeded: ${message}`, data: { error: 'limit_exceeded', reason, limit, ...details } };
}

/**
 * What one `POST /mcp` — a single message, or a JSON-RPC batch of them — may cost the
 * server (docs/mcp.md › Limits): its requests run one at a time, in order, with the event
 * loop free for other requests between two of them; at most `mcpCallsPerRequest` of them
 * run, and their answers total at most `mcpAnswerBytesPerRequest` bytes. A request past
 * either limit gets a JSON-RPC error of its own and is not run; a tool answer that would
 * pass the bytes limit is not built (`answer`). Each exchange gets a budget of its own.
 */
export class RequestBudget {
  private calls = 0;
  private answerBytes = 0;
  /** Why the answer of the call being run was not built: sent in place of the tool's result. */
  private refused: Refusal | undefined;

  /**
   * A tool's answer of `bytes`, asked before the answer is built: counted when it fits in
   * what the request may still answer, else refused (the refusal, which `serve` sends in
   * place of the tool's result) — unless the call saved a change (`saved`), whose answer is
   * always given: a client told "refused" would send the change again. So the bytes of the
   * answers already given count before the next one is built.
   */
  answer(bytes: number, saved: boolean): Refusal | undefined {
    if (bytes > limits.mcpAnswerBytesPerRequest - this.answerBytes && !saved) {
      this.refused =
        bytes > limits.mcpAnswerBytesPerRequest
          ? refusal('answer_bytes', `the answer (${bytes} bytes) is larger than a request may answer (${limits.mcpAnswerBytesPerRequest} bytes); ask for less (search_tasks reads a plan a page at a time)`, { answerBytes: bytes })
          : refusal('answer_bytes', `the answers of this request would pass ${limits.mcpAnswerBytesPerRequest} bytes; send this call again in another request`, { answerBytes: bytes });
      return this.refused;
    }
    this.answerBytes += bytes;
    return undefined;
  }

  /**
   * Serves the exchange on `transport` within this budget, once the server is connected to
   * it: the messages the transport receives are handed to the server one request at a time
   * (requests past the budget are answered here), and the answer of a tool call whose
   * answer was refused is sent as the JSON-RPC error instead.
   */
  serve(transport: Transport): void {
    const deliver = transport.onmessage;
    const send = transport.send.bind(transport);
    const protocolClosed = transport.onclose;
    if (!deliver) throw new Error('RequestBudget.serve: connect the server to the transport first');
    const waiting: [JSONRPCMessage, MessageExtraInfo | undefined][] = [];
    let running: { id: RequestId } | undefined;
    const fail = (error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error)));

    const next = () => {
      while (!running && waiting.length > 0) {
        const [message, extra] = waiting.shift()!;
        if (!isRequest(message)) {
          deliver(message, extra);
          continue;
        }
        const refused = this.admit();
        if (refused) {
          send({ jsonrpc: '2.0', id: message.id, error: refused }).catch(fail);
          continue;
        }
        running = { id: message.id };
        deliver(message, extra);
      }
    };
    // The first message is handed over at once, as the transport delivered it (the SDK's
    // transport answers a refusal made while it delivers with the matching HTTP status).
    transport.onmessage = (message, extra) => {
      waiting.push([message, extra]);
      next();
    };
    transport.send = async (message, options) => {
      if (!running || !isResponse(message) || message.id !== running.id) return send(message, options);
      const refused = this.refused;
      this.refused = undefined;
      running = undefined;
      // Between two calls, the event loop serves every other request first.
      setImmediate(next);
      return send(refused ? { jsonrpc: '2.0', id: message.id, error: refused } : message, options);
    };
    transport.onclose = () => {
      waiting.length = 0;
      protocolClosed?.();
    };
  }

  /** Whether the next request may run: undefined when it may, else why not. */
  private admit(): Refusal | undefined {
    if (this.calls >= limits.mcpCallsPerRequest) {
      return refusal('calls', `a request runs at most ${limits.mcpCallsPerRequest} calls; send the others in another request`);
    }
    if (this.answerBytes >= limits.mcpAnswerBytesPerRequest) {
      return refusal('answer_bytes', `the answers of this request reached ${limits.mcpAnswerBytesPerRequest} bytes; send this call again in another request`);
    }
    this.calls += 1;
    return undefined;
  }
}
