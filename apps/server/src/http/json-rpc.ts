/**
 * The JSON-RPC 2.0 envelope (https://www.jsonrpc.org/specification) of an endpoint that speaks it (the
 * bundler proxy): the body is read here, not by the API's validator, because every problem must be
 * answered as a JSON-RPC error object, not as a REST error:
 *  - not JSON: -32700 Parse error, id null;
 *  - not a Request object (not an object, jsonrpc not "2.0", method not a string, id not a string, number
 *    or null, params neither an array nor an object): -32600 Invalid Request, with the id when it could be
 *    read, else null;
 *  - a method not offered: -32601 Method not found; params by name, or more than the endpoint takes:
 *    -32602 Invalid params;
 *  - a call that fails: the error the method threw as a JsonRpcError, anything else -32603 Internal error;
 *  - a notification (a valid Request without an id): not executed and not answered (decision 182);
 *  - a batch (an array): an empty one is one -32600 error; otherwise each element is answered in an array
 *    (no element for a notification, no body when only notifications), a valid call with -32005 "limit
 *    exceeded" (EIP-1474): calls are taken one per request, so each counts against the rate limits.
 * Ids are answered as they came (strings, numbers, null), never replaced.
 */

export type JsonRpcId = string | number | null;
export type JsonRpcErrorObject = { code: number; message: string; data?: unknown };
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId; error: JsonRpcErrorObject };

export const JSON_RPC_PARSE_ERROR = -32700;
export const JSON_RPC_INVALID_REQUEST = -32600;
export const JSON_RPC_METHOD_NOT_FOUND = -32601;
export const JSON_RPC_INVALID_PARAMS = -32602;
export const JSON_RPC_INTERNAL_ERROR = -32603;
/** EIP-1474 "Limit exceeded": a batch, where the endpoint takes one call per request; a spent budget. */
export const JSON_RPC_LIMIT_EXCEEDED = -32005;
/** EIP-1474 "Transaction rejected": an operation the caller may not have relayed (another's wallet). */
export const JSON_RPC_TRANSACTION_REJECTED = -32003;

/** An error a method answers with (its code, message and data go to the caller as they are). */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface JsonRpcEndpoint {
  methods: ReadonlySet<string>;
  /** Most positional params a call may carry. */
  maxParams: number;
  call(method: string, params: unknown[]): Promise<unknown>;
}

const failure = (id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse => ({
  jsonrpc: "2.0",
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

const isId = (v: unknown): v is JsonRpcId =>
  typeof v === "string" || (typeof v === "number" && Number.isFinite(v)) || v === null;

type Checked =
  | { kind: "answer"; response: JsonRpcResponse }
  | { kind: "notification" }
  | { kind: "call"; id: JsonRpcId; method: string; params: unknown[] };

/** One element: an answer already (an invalid Request, an unknown method, bad params), or a call. */
function check(value: unknown, endpoint: JsonRpcEndpoint): Checked {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { kind: "answer", response: failure(null, JSON_RPC_INVALID_REQUEST, "Invalid Request") };
  const request = value as Record<string, unknown>;
  const hasId = Object.hasOwn(request, "id");
  const id = hasId && isId(request.id) ? request.id : null;
  const invalid = (why: string): Checked => ({
    kind: "answer",
    response: failure(id, JSON_RPC_INVALID_REQUEST, `Invalid Request: ${why}`),
  });
  if (request.jsonrpc !== "2.0") return invalid('jsonrpc must be "2.0"');
  if (hasId && !isId(request.id)) return invalid("id must be a string, a number or null");
  if (typeof request.method !== "string") return invalid("method must be a string");
  const { params } = request;
  if (params !== undefined && (typeof params !== "object" || params === null))
    return invalid("params must be an array or an object");
  if (!hasId) return { kind: "notification" };
  if (!endpoint.methods.has(request.method))
    return { kind: "answer", response: failure(id, JSON_RPC_METHOD_NOT_FOUND, "Method not found") };
  if (params !== undefined && !Array.isArray(params))
    return {
      kind: "answer",
      response: failure(id, JSON_RPC_INVALID_PARAMS, "Invalid params: by position only"),
    };
  if (Array.isArray(params) && params.length > endpoint.maxParams)
    return {
      kind: "answer",
      response: failure(id, JSON_RPC_INVALID_PARAMS, `Invalid params: at most ${endpoint.maxParams}`),
    };
  return { kind: "call", id, method: request.method, params: (params as unknown[] | undefined) ?? [] };
}

async function run(call: Extract<Checked, { kind: "call" }>, endpoint: JsonRpcEndpoint) {
  try {
    const result = await endpoint.call(call.method, call.params);
    return { jsonrpc: "2.0", id: call.id, result: result ?? null } satisfies JsonRpcResponse;
  } catch (err) {
    if (err instanceof JsonRpcError) return failure(call.id, err.code, err.message, err.data);
    return failure(call.id, JSON_RPC_INTERNAL_ERROR, "Internal error");
  }
}

/**
 * The answer to a JSON-RPC 2.0 body (its text): one response, an array of them (a batch), or undefined
 * when nothing is to be answered (notifications only).
 */
export async function answerJsonRpc(
  text: string,
  endpoint: JsonRpcEndpoint,
): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return failure(null, JSON_RPC_PARSE_ERROR, "Parse error");
  }
  if (!Array.isArray(body)) {
    const checked = check(body, endpoint);
    if (checked.kind === "notification") return undefined;
    return checked.kind === "answer" ? checked.response : run(checked, endpoint);
  }
  if (body.length === 0) return failure(null, JSON_RPC_INVALID_REQUEST, "Invalid Request: empty batch");
  const answers: JsonRpcResponse[] = [];
  for (const element of body) {
    const checked = check(element, endpoint);
    if (checked.kind === "answer") answers.push(checked.response);
    else if (checked.kind === "call")
      answers.push(
        failure(checked.id, JSON_RPC_LIMIT_EXCEEDED, "Batches are not taken: send one call per request"),
      );
  }
  return answers.length ? answers : undefined;
}
