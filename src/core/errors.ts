// Errors as values: services throw these, and one handler turns them into GitHub-shaped bodies.
const DOCS_URL = 'https://docs.github.com/rest';

export interface FieldError {
  resource: string;
  field?: string;
  code: 'missing' | 'missing_field' | 'invalid' | 'already_exists' | 'unprocessable' | 'custom' | 'invalid_value' | string;
  message?: string;
  value?: unknown;
  index?: number;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
  body(documentationUrl = DOCS_URL): Record<string, unknown> {
    return { message: this.message, ...this.extra, documentation_url: documentationUrl, status: String(this.status) };
  }
}

export class BadRequest extends HttpError {
  constructor(message = 'Bad Request') {
    super(400, message);
  }
}
export class Unauthorized extends HttpError {
  constructor(message = 'Requires authentication') {
    super(401, message);
  }
}
export class Forbidden extends HttpError {
  constructor(message = 'Forbidden', headers: Record<string, string> = {}) {
    super(403, message, {}, headers);
  }
}
export class NotFound extends HttpError {
  constructor(message = 'Not Found') {
    super(404, message);
  }
}
export class Conflict extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}
export class ServiceUnavailable extends HttpError {
  constructor(message: string) {
    super(503, message);
  }
}
export class ValidationFailed extends HttpError {
  constructor(errors: FieldError[], message = 'Validation Failed') {
    super(422, message, { errors });
  }
}
/** A 422 with a message only, as GitHub answers some rules (e.g. paging past the public gist limit). */
export class Unprocessable extends HttpError {
  constructor(message: string) {
    super(422, message);
  }
}
