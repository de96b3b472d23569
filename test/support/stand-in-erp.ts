/**
 * An ERP on this machine for the tests of a hand-off (`webhook listen --forward-to`, `webhook replay --to`): it
 * keeps every request it is sent and answers each as the test says, so a test reads what reached the ERP.
 */
import { createServer } from 'node:http';

/** A request the ERP was sent, once its body was read. */
export interface ErpRequest {
  url: string;
  authorization: string | undefined;
  body: string;
}

/** How the ERP answers a request: a status, and a body of the given content type (none unless given). */
export interface ErpAnswer {
  status: number;
  /** Text is sent as UTF-8; bytes as they are (an answer in another charset). */
  body?: string | Buffer;
  type?: string;
  /** Other headers of the answer (`content-encoding`). */
  headers?: Record<string, string>;
}

export interface StandInErp {
  port: number;
  /** The hand-off URL on it, `http://127.0.0.1:PORT/hook`. */
  url: string;
  /** Every request it was sent, in the order they came. */
  received: ErpRequest[];
  close(): Promise<void>;
}

/** An ERP on a free loopback port answering every request as `answer` says (200 and no body unless told). */
export async function standInErp(answer: (request: ErpRequest) => ErpAnswer = () => ({ status: 200 })) {
  const received: ErpRequest[] = [];
  const erp = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const taken = { url: request.url ?? '', authorization: request.headers.authorization, body };
      received.push(taken);
      const { status, body: answerBody, type, headers } = answer(taken);
      response
        .writeHead(status, { ...headers, ...(type === undefined ? {} : { 'content-type': type }) })
        .end(answerBody);
    });
  });
  await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
  const port = (erp.address() as { port: number }).port;
  const standIn: StandInErp = {
    port,
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => erp.close(() => resolve())),
  };
  return standIn;
}
