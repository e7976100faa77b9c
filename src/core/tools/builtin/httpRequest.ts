import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { settleOnce } from '../../async/settleOnce';
import { AgentError } from '../../errors/agentError';
import { pinnedLookup, vetUrl, type HostResolver } from '../../workspaceSandbox/networkGuard';
import { defineTool } from '../types';
import { formatDuration } from './textLimits';

/** Default response body cap of `http_request` (1 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Default time limit of `http_request` (30 s). */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

/** Limits of `http_request`, set by the host. */
export interface HttpRequestOptions {
  /** Hosts or addresses that may be reached even when loopback or private (see `vetUrl`). */
  allowHosts?: string[];
  maxResponseBytes?: number;
  /** Default and ceiling for one request. */
  timeoutMs?: number;
  /** Replaces DNS resolution (for hosts with their own resolver). */
  resolve?: HostResolver;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Parameters of `http_request`. */
export const httpRequestParameters = z.object({
  method: z.enum(METHODS).optional().describe('HTTP method (default GET).'),
  url: z
    .string()
    .min(1)
    .describe('Absolute http:// or https:// URL. Private, loopback and cloud-metadata addresses are refused.'),
  headers: z.record(z.string(), z.string()).optional().describe('Request headers as name → value.'),
  body: z.string().optional().describe('Request body (text, e.g. JSON).'),
  timeout_seconds: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Give up after this many seconds. Capped by the session limit, which is also the default.'),
});

/** Response headers worth showing to the model; the rest (cookies and the like) are left out. */
const SHOWN_HEADERS = [
  'content-type',
  'content-length',
  'location',
  'retry-after',
  'cache-control',
  'etag',
  'last-modified',
  'www-authenticate',
];
const BINARY_TYPE = /^(image|audio|video|font)\/|application\/(octet-stream|zip|gzip|pdf|x-tar|wasm)/i;

/** What `http_request` returns as `data`. */
export interface HttpResponseData {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  /** Bytes of the body received (at most maxResponseBytes). */
  bytes: number;
  truncated: boolean;
}

interface RawResponse {
  response: IncomingMessage;
  body: Buffer;
  truncated: boolean;
}

/**
 * `http_request` (HIGH: data can leave the machine): one HTTP(S) request through the SSRF guard
 * (host resolved first, private/loopback/metadata addresses refused unless allow-listed, the
 * connection pinned to the vetted address). Redirects are not followed. The body is read up to
 * `maxResponseBytes` (then cut with a marker) within `timeoutMs`.
 */
export function createHttpRequestTool(options: HttpRequestOptions = {}) {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const ceilingMs = options.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  return defineTool({
    name: 'http_request',
    description: `Send an HTTP request and return status, main headers and body text (body capped at ${maxBytes} bytes). Redirects are not followed.`,
    category: 'http',
    dangerLevel: 'HIGH',
    parameters: httpRequestParameters,
    preview: (params) => ({
      kind: 'request',
      method: params.method ?? 'GET',
      url: params.url,
      hasBody: params.body !== undefined,
    }),
    async execute(params, context) {
      const method = params.method ?? 'GET';
      const target = await vetUrl(params.url, { allowHosts: options.allowHosts, resolve: options.resolve });
      const timeoutMs = Math.min(ceilingMs, (params.timeout_seconds ?? Infinity) * 1000);
      context.logger.debug('http_request', { method, url: target.url.origin, address: target.address });
      const raw = await send(target.url, method, params, {
        lookup: pinnedLookup(target),
        timeoutMs,
        maxBytes,
        signal: context.signal,
      });

      const headers: Record<string, string> = {};
      for (const name of SHOWN_HEADERS) {
        const value = raw.response.headers[name];
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const contentType = headers['content-type'] ?? '';
      const binary = BINARY_TYPE.test(contentType);
      const body = binary ? '' : raw.body.toString('utf8');
      const data: HttpResponseData = {
        status: raw.response.statusCode ?? 0,
        statusText: raw.response.statusMessage ?? '',
        headers,
        body,
        bytes: raw.body.length,
        truncated: raw.truncated,
      };
      const lines = [
        `HTTP ${data.status} ${data.statusText}`.trim(),
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
      ];
      if (binary) lines.push(`(binary body of ${data.bytes} bytes not shown)`);
      else lines.push(body);
      if (raw.truncated) lines.push(`…[response truncated at ${maxBytes} bytes]`);
      if (data.status >= 300 && data.status < 400 && headers.location)
        lines.push(`(redirect to ${headers.location} not followed)`);
      return { content: lines.join('\n'), data };
    },
  });
}

function send(
  url: URL,
  method: string,
  params: { headers?: Record<string, string>; body?: string },
  limits: { lookup: ReturnType<typeof pinnedLookup>; timeoutMs: number; maxBytes: number; signal: AbortSignal },
): Promise<RawResponse> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<RawResponse>((resolve, reject) => {
    let request: http.ClientRequest;
    try {
      // agent: false → a fresh connection through the pinned lookup, never a pooled socket.
      request = client.request(url, { method, headers: params.headers, lookup: limits.lookup, agent: false });
    } catch (error) {
      reject(new AgentError('VALIDATION', `Invalid request: ${(error as Error).message}. Nothing was sent.`, { url: url.href }));
      return;
    }
    const wait = settleOnce({
      timeoutMs: limits.timeoutMs,
      onTimeout: (w) => {
        w.settle(() =>
          reject(
            new AgentError(
              'TIMEOUT',
              `No complete response from ${url.origin} within ${formatDuration(limits.timeoutMs)}; the request was abandoned.`,
            ),
          ),
        );
        request.destroy();
      },
      signal: limits.signal,
      onAbort: (w) => {
        w.settle(() => reject(new AgentError('CANCELLED', 'The HTTP request was cancelled.')));
        request.destroy();
      },
    });
    const finish = (error: AgentError | undefined, value?: RawResponse): void => {
      wait.settle(() => (error ? reject(error) : resolve(value!)));
    };

    request.on('error', (error) => {
      finish(
        new AgentError('CONNECTION', `The request to ${url.origin} failed: ${error.message}.`, {
          code: (error as { code?: string }).code,
        }),
      );
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (truncated: boolean): void => finish(undefined, { response, body: Buffer.concat(chunks), truncated });
      response.on('data', (chunk: Buffer) => {
        if (wait.settled) return;
        if (size + chunk.length > limits.maxBytes) {
          chunks.push(chunk.subarray(0, limits.maxBytes - size));
          size = limits.maxBytes;
          done(true);
          response.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => done(false));
      response.on('error', (error) =>
        finish(new AgentError('CONNECTION', `The response from ${url.origin} broke off: ${error.message}.`)),
      );
    });
    if (params.body !== undefined) request.end(params.body);
    else request.end();
  });
}
