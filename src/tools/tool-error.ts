/**
 * The error a tool throws for a problem the model should see (an error result), in a module of its own:
 * code that runs before zod loads (the TUI's file picker) throws it too.
 */
/** Thrown by a tool to report a problem the model should see as an error result. */
export class ToolError extends Error {
  readonly metadata?: Record<string, unknown>;
  constructor(message: string, metadata?: Record<string, unknown>) {
    super(message);
    this.name = 'ToolError';
    this.metadata = metadata;
  }
}
