/** Why an RPC answer was not used; rpc-fetch.ts turns each into the text of a check's verdict. */
export class AnswerTooLargeError extends Error {
  constructor() {
    super('answer larger than 1 MiB');
  }
}

export class HttpStatusError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** The URL policy refused the endpoint (or an address it resolved to). */
export class RefusedUrlError extends Error {}
