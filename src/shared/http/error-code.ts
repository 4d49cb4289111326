const ERROR_CODE = Symbol('errorCode');

type Stash = { [ERROR_CODE]?: string };

/** Notes on the request the `code` of the error body it was answered with (for metrics). */
export function rememberErrorCode(request: object, code: string): void {
  (request as Stash)[ERROR_CODE] = code;
}

/** The `code` of the error body the request was answered with; undefined when it succeeded. */
export const errorCodeOf = (request: object): string | undefined => (request as Stash)[ERROR_CODE];
