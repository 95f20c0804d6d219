// An OTLP/HTTP traces receiver of the tests' own, as a collector would be: a node:http server that
// accepts POST /v1/traces and keeps what came. Bodies in http/json are decoded into spans; a body in
// http/protobuf is kept as bytes with its content type.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean | AttributeValue[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, AttributeValue> }>;
  events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  status: { code?: number; message?: string };
  resource: Record<string, AttributeValue>;
  scope: string;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Every POST: its path, content type and raw body. */
  requests: Array<{ path: string; contentType: string; body: Buffer }>;
  close(): Promise<void>;
}

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const;

interface OtlpAnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
}
type OtlpAttributes = Array<{ key: string; value: OtlpAnyValue }> | undefined;

function valueOf(value: OtlpAnyValue | undefined): AttributeValue {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return null;
}

function attributesOf(attributes: OtlpAttributes): Record<string, AttributeValue> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

/** Ids arrive as hex in http/json (OTLP's JSON mapping); base64 is accepted too. */
function idOf(id: string | undefined): string | undefined {
  if (!id) return undefined;
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const receiver: OtlpReceiver = {
    url: '',
    spans: [],
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      receiver.requests.push({ path: req.url ?? '', contentType, body });
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (contentType.startsWith('application/json')) {
        const request = JSON.parse(body.toString('utf8')) as {
          resourceSpans?: Array<{
            resource?: { attributes?: OtlpAttributes };
            scopeSpans?: Array<{
              scope?: { name?: string };
              spans?: Array<{
                traceId: string;
                spanId: string;
                parentSpanId?: string;
                name: string;
                kind: number;
                attributes?: OtlpAttributes;
                links?: Array<{ traceId: string; spanId: string; attributes?: OtlpAttributes }>;
                events?: Array<{ name: string; attributes?: OtlpAttributes }>;
                status?: { code?: number; message?: string };
              }>;
            }>;
          }>;
        };
        for (const resourceSpans of request.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
            for (const span of scopeSpans.spans ?? []) {
              receiver.spans.push({
                traceId: idOf(span.traceId)!,
                spanId: idOf(span.spanId)!,
                parentSpanId: idOf(span.parentSpanId),
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                links: (span.links ?? []).map((link) => ({ traceId: idOf(link.traceId)!, spanId: idOf(link.spanId)!, attributes: attributesOf(link.attributes) })),
                events: (span.events ?? []).map((event) => ({ name: event.name, attributes: attributesOf(event.attributes) })),
                status: span.status ?? {},
                resource,
                scope: scopeSpans.scope?.name ?? '',
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': contentType || 'application/json' }).end(contentType.startsWith('application/json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
