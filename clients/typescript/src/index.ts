// A thin, typed client for Daedalus: REST through openapi-fetch on the types generated
// from openapi/openapi.yaml, GraphQL over HTTP and subscriptions over graphql-ws with
// the types generated from openapi/schema.graphql. Nothing here is written by hand that
// the contracts already say.
import { print } from "graphql";
import { createClient as createSocket, type Client as Socket } from "graphql-ws";
import createFetchClient, { type Client as RestClient } from "openapi-fetch";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { paths } from "./generated/openapi.js";

export type * from "./generated/graphql.js";
export * as documents from "./generated/graphql.js";
export type { components, paths } from "./generated/openapi.js";

/** A refusal as the service words it: a stable code, a message, the HTTP status. */
export class DaedalusError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface DaedalusOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8000 (no trailing slash). */
  baseUrl: string;
  /** An API key (sent as X-API-Key, and as `api_key` in a socket's connection_init). */
  apiKey?: string;
  /** A WebSocket class where the runtime has none (Node 20: the `ws` package's). */
  webSocketImpl?: unknown;
}

export interface Daedalus {
  /** Every REST operation of openapi/openapi.yaml, typed (openapi-fetch). */
  rest: RestClient<paths>;
  /** Run a typed GraphQL query or mutation over HTTP. */
  graphql<R, V extends Record<string, unknown>>(doc: TypedDocumentNode<R, V>, variables: V): Promise<R>;
  /** Follow a typed subscription; `onData` gets each result. Resolves when it completes. */
  subscribe<R, V extends Record<string, unknown>>(
    doc: TypedDocumentNode<R, V>,
    variables: V,
    onData: (data: R) => void,
  ): { done: Promise<void>; stop: () => void };
  /** Close the client's socket. */
  close(): Promise<void>;
}

export function createDaedalus(options: DaedalusOptions): Daedalus {
  const keyHeaders: Record<string, string> = options.apiKey ? { "x-api-key": options.apiKey } : {};
  const rest = createFetchClient<paths>({ baseUrl: options.baseUrl, headers: keyHeaders });
  let socket: Socket | null = null;
  const socketOf = (): Socket =>
    (socket ??= createSocket({
      url: options.baseUrl.replace(/^http/, "ws") + "/graphql",
      lazy: true,
      webSocketImpl: options.webSocketImpl,
      connectionParams: options.apiKey ? { api_key: options.apiKey } : {},
    }));

  return {
    rest,
    async graphql(doc, variables) {
      const response = await fetch(`${options.baseUrl}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...keyHeaders },
        body: JSON.stringify({ query: print(doc), variables }),
      });
      const body = (await response.json()) as {
        data?: unknown;
        errors?: { message: string; extensions?: { code?: string } }[];
      };
      const error = body.errors?.[0];
      if (error || body.data === undefined) {
        throw new DaedalusError(error?.extensions?.code ?? "graphql_error", error?.message ?? "no data", response.status);
      }
      return body.data as never;
    },
    subscribe(doc, variables, onData) {
      let stop = (): void => {};
      const done = new Promise<void>((resolve, reject) => {
        stop = socketOf().subscribe(
          { query: print(doc), variables },
          {
            next: (result) => {
              if (result.errors?.length) {
                const first = result.errors[0]!;
                const code = (first.extensions?.code as string | undefined) ?? "graphql_error";
                reject(new DaedalusError(code, first.message, 0));
              } else if (result.data) onData(result.data as never);
            },
            error: (error) => reject(error instanceof Error ? error : new Error(String(error))),
            complete: () => resolve(),
          },
        );
      });
      return { done, stop: () => stop() };
    },
    async close() {
      await socket?.dispose();
      socket = null;
    },
  };
}

/** A REST answer's data, or its problem as a DaedalusError. */
export function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined || answer.error !== undefined) {
    const problem = (answer.error ?? {}) as { code?: string; detail?: string };
    throw new DaedalusError(problem.code ?? "error", problem.detail ?? "request refused", answer.response.status);
  }
  return answer.data;
}
