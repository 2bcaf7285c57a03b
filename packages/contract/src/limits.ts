/** Documented limits, shared by validation, the server and the docs. */
export const limits = {
  /** Read requests (GET) per API key in any sliding 60 s window. */
  readRequestsPerMinute: 240,
  /** Write requests (POST, PUT, PATCH, DELETE) per API key in any sliding 60 s window. */
  writeRequestsPerMinute: 60,
  rateLimitWindowMs: 60_000,
  /** Largest accepted request body; larger bodies get 413 `payload_too_large`. */
  requestBodyMaxBytes: 4 * 1024 * 1024,
  /** Deepest nesting of arrays and objects in a request body (ours need 5: a calendar's exception intervals); deeper is a 400. */
  requestBodyMaxDepth: 32,
  changesPerChangeSet: 1000,
  /** Most values (strings, numbers, objects…) in one request: a full 1,000-change set holds about 30,000. */
  requestValuesMax: 100_000,
  /** Years of the dates a client may send (project start, constraint dates, deadlines, actual dates). */
  dateYearMin: 1900,
  dateYearMax: 2199,
  /** Most problems listed in a 400's `details.fields`; `details.fieldsOmitted` counts the rest. */
  errorFieldsMax: 100,
  /** Calendars: exceptions per calendar, and working intervals per day (of the week or of an exception). */
  calendarExceptionsMax: 1000,
  calendarIntervalsPerDayMax: 24,
  webhooksPerWorkspace: 50,
  taskPageSizeMax: 500,
  taskPageSizeDefault: 100,
  nameMaxLength: 200,
  /** Largest Max. Units of a resource, in percent: a thousand full-time people. */
  resourceMaxUnitsPct: 100_000,
  /** Most assignments a change set gives one new task: as many as `PUT …/assignees` assigns (100 members and 100 other resources). */
  assignmentsPerTaskMax: 200,
  /** Passwords of the web sign-in: at least this many characters… */
  passwordMinLength: 10,
  /** …and at most this many (any longer text is not a password anyone types). */
  passwordMaxLength: 1000,
  /** Longest e-mail address (RFC 5321) and avatar address accepted. */
  emailMaxLength: 254,
  urlMaxLength: 2000,
  descriptionMaxLength: 20_000,
  /** Runs of a finish forecast, at most and by default… */
  forecastRunsMax: 10_000,
  forecastRunsDefault: 1000,
  /** …and at most this many task schedulings in all (runs × tasks): a 10,000-task plan gets 200 runs. */
  forecastTaskRunsMax: 2_000_000,
  /** Most tasks an imported plan file (Microsoft Project XML) may hold; its size is bounded by `requestBodyMaxBytes`. */
  importTasksMax: 20_000,
  /** Deepest nesting of elements in an imported XML file (Microsoft Project's files need 10). */
  importXmlDepthMax: 32,
  /**
   * One `POST /mcp` (a single message or a JSON-RPC batch): at most this many requests run
   * (a batch of get_plan calls must not cost what many separate reads, each rate-limited, would)…
   */
  mcpCallsPerRequest: 10,
  /**
   * …and their answers total at most this many bytes: the get_plan answer of a plan of about
   * 15,000 tasks (an answer carries its JSON twice, as structured content and as text).
   */
  mcpAnswerBytesPerRequest: 32 * 1024 * 1024,
  /** Days the recurring calendar exceptions and work weeks of an imported file may fall on, all calendars together. */
  importCalendarDaysMax: 100_000,
  /** Project keys: 2-5 letters or digits, starting with a letter. */
  projectKeyPattern: /^[A-Za-z][A-Za-z0-9]{1,4}$/,
} as const;

/**
 * The 24 languages of the service (template texts, the web app's formats): a user's
 * `locale`, and the `locale` of a project made from a template, is one of them.
 */
export const locales = [
  'en', 'it', 'es', 'fr', 'de', 'pt', 'nl', 'pl', 'ja', 'zh', 'sv', 'da',
  'no', 'fi', 'cs', 'ro', 'uk', 'tr', 'ar', 'he', 'hi', 'id', 'vi', 'ko',
] as const;
export type Locale = (typeof locales)[number];

/** The API version: `info.version` of the OpenAPI document and `apiVersion` of every event. */
export const API_VERSION = '2026-10-01';
