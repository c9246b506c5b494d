/**
 * The shape of the TUI's state: one snapshot that {@link ChatStore} replaces whenever anything
 * changes, and the pieces it holds (the status message, the queued prompts).
 */
import type { FileChange } from '../../db/file-store.js';
import type { Session } from '../../db/session-store.js';
import type { ImagePart } from '../../message.js';
import type { McpServerInfo } from '../../mcp/service.js';
import type { PermissionRequest } from '../../permission/types.js';
import type { LogEntry } from '../pages/log-entry.js';
import type { Activity } from './activity.js';
import type { ChatItem } from './chat-item.js';
import type { CustomToolsSummary } from './services.js';

export type StatusLevel = 'info' | 'warn' | 'error';

/** A prompt sent while a reply ran: it goes when the run before it ends. */
export interface QueuedPrompt {
  /** unique in the store's life */
  id: number;
  text: string;
  attachments: ImagePart[];
}

export interface StatusMessage {
  text: string;
  level: StatusLevel;
  /** unix ms */
  expiresAt: number;
}

/** A snapshot of the TUI's state; a new object whenever anything changes. */
export interface ChatState {
  session?: Session;
  items: ChatItem[];
  busy: boolean;
  /** the session is being compacted */
  compacting: boolean;
  /** requests waiting for an answer, oldest first; the dialog shows the first */
  permissionQueue: PermissionRequest[];
  status?: StatusMessage;
  modifiedFiles: FileChange[];
  mcpServers: McpServerInfo[];
  /** custom tools that loaded and failed; undefined until loaded */
  customTools?: CustomToolsSummary;
  logs: LogEntry[];
  /** the user's earlier prompts in this session, oldest first (editor history) */
  promptHistory: string[];
  /** prompts sent while a reply ran, oldest first; the first goes when the run ends */
  queue: QueuedPrompt[];
  /**
   * The person canceled the run (esc): the queue waits instead of going. Esc again clears it; enter
   * on an empty editor, or sending another prompt, sends it.
   */
  queueHeld: boolean;
  /** what the agent does now, for the pulse line; undefined while idle */
  activity?: Activity;
}
