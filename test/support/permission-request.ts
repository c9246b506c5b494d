import type { PermissionRequest } from '../../src/permission/types.js';

/** The project folder of {@link RM_VICTIM_REQUEST}. */
export const RM_VICTIM_CWD = '/work/project';

/** A pending permission request for `bash` running `rm victim` in {@link RM_VICTIM_CWD}, as the dialog tests show it. */
export const RM_VICTIM_REQUEST: PermissionRequest = {
  id: 'p1',
  sessionId: 's1',
  toolName: 'bash',
  action: 'execute',
  description: 'Execute command: rm victim',
  params: { command: 'rm victim' },
  path: RM_VICTIM_CWD,
  scopes: ['rm *'],
  reasons: ['rm victim: not a read-only command'],
  createdAt: 0,
};
