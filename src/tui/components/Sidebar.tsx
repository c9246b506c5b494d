/**
 * The right-hand panel once a session exists (as in the original): name and version, cwd, the session
 * title, configured language servers, MCP servers and their state, custom tools and plugins' hooks,
 * and the files the session modified with +added/−removed lines.
 */
import { basename } from 'node:path';
import { Box, Text } from 'ink';
import React, { memo } from 'react';
import type { FileChange } from '../../db/file-store.js';
import type { McpServerInfo } from '../../mcp/service.js';
import type { CustomToolsSummary, LspView } from '../state/services.js';
import { useTheme } from '../theme-context.js';
import { Logo } from './Logo.js';

export interface SidebarProps {
  width: number;
  height: number;
  version: string;
  cwd: string;
  title: string;
  lspServers: string[];
  /** the servers' states; when given, shown instead of the bare names */
  lspStates?: LspView['servers'];
  mcpServers: McpServerInfo[];
  /** custom tools: the section shows only when some loaded or failed */
  customTools?: CustomToolsSummary;
  modifiedFiles: FileChange[];
}

/** Shortens `/home/u/project/src/a.ts` to fit `width`, keeping the end. */
function fitPath(path: string, width: number): string {
  if (path.length <= width) return path;
  return `…${path.slice(path.length - width + 1)}`;
}

export const Sidebar = memo(function Sidebar(props: SidebarProps) {
  const { width, height, version, cwd, title, lspServers, lspStates, mcpServers, customTools, modifiedFiles } = props;
  const theme = useTheme();
  const inner = width - 2;
  const home = process.env.HOME;
  const shownCwd = home && cwd.startsWith(home) ? `~${cwd.slice(home.length)}` : cwd;
  const statusColor = (s: McpServerInfo['status']) =>
    s === 'connected' ? theme.success : s === 'failed' ? theme.error : theme.warning;
  const hookRows = customTools?.hooks ?? [];
  const custom =
    customTools && customTools.loaded.length + hookRows.length + customTools.failed.length > 0
      ? customTools
      : undefined;
  const customRows = custom ? 2 + custom.loaded.length + hookRows.length + custom.failed.length : 0;
  const maxFiles = Math.max(1, height - 14 - lspServers.length - mcpServers.length - customRows);
  return (
    <Box flexDirection="column" width={width} flexShrink={0} paddingLeft={1} paddingRight={1} overflow="hidden">
      <Logo version={version} />
      <Text color={theme.textMuted} wrap="truncate-end">
        cwd: {fitPath(shownCwd, inner - 5)}
      </Text>
      <Text> </Text>
      <Text bold color={theme.text} wrap="truncate-end">
        {title || 'New session'}
      </Text>
      <Text> </Text>
      <Text bold color={theme.secondary}>
        LSP Configuration
      </Text>
      {lspServers.length === 0 ? <Text color={theme.textMuted}>none configured</Text> : null}
      {lspStates
        ? lspStates.map((s) => (
            <Text key={s.language} wrap="truncate-end">
              <Text
                color={
                  s.state === 'ready'
                    ? theme.success
                    : s.state === 'failed'
                      ? theme.error
                      : s.state === 'starting'
                        ? theme.warning
                        : theme.textMuted
                }
              >
                ●{' '}
              </Text>
              <Text color={theme.text}>{s.language}</Text>
              <Text color={theme.textMuted}>
                {' '}
                {s.state === 'idle' ? 'not started' : s.state}
                {s.state === 'failed' && s.reason ? `: ${s.reason}` : ''}
              </Text>
            </Text>
          ))
        : lspServers.map((name) => (
            <Text key={name} color={theme.text} wrap="truncate-end">
              • {name}
            </Text>
          ))}
      {mcpServers.length > 0 ? (
        <>
          <Text> </Text>
          <Text bold color={theme.secondary}>
            MCP Servers
          </Text>
          {mcpServers.map((s) => (
            <Text key={s.name} wrap="truncate-end">
              <Text color={statusColor(s.status)}>● </Text>
              <Text color={theme.text}>{s.name}</Text>
              <Text color={theme.textMuted}> {s.status === 'connected' ? `${s.tools.length} tools` : s.status}</Text>
            </Text>
          ))}
        </>
      ) : null}
      {custom ? (
        <>
          <Text> </Text>
          <Text bold color={theme.secondary}>
            Custom Tools
          </Text>
          {custom.loaded.map((t) => (
            <Text key={`${t.source}:${t.name}`} wrap="truncate-end">
              <Text color={theme.success}>● </Text>
              <Text color={theme.text}>{t.name}</Text>
              <Text color={theme.textMuted}> {t.source}</Text>
            </Text>
          ))}
          {hookRows.map((h) => (
            <Text key={`hooks:${h.source}:${h.origin}`} wrap="truncate-end">
              <Text color={theme.success}>● </Text>
              <Text color={theme.text}>{basename(h.origin)}</Text>
              <Text color={theme.textMuted}> hooks: {h.hooks.join(', ')}</Text>
            </Text>
          ))}
          {custom.failed.map((line) => (
            <Text key={line} wrap="truncate-end">
              <Text color={theme.error}>● </Text>
              <Text color={theme.textMuted}>{line}</Text>
            </Text>
          ))}
        </>
      ) : null}
      <Text> </Text>
      <Text bold color={theme.secondary}>
        Modified Files
      </Text>
      {modifiedFiles.length === 0 ? <Text color={theme.textMuted}>none yet</Text> : null}
      {modifiedFiles.slice(0, maxFiles).map((f) => {
        const counts = ` +${f.additions} -${f.removals}`;
        return (
          <Text key={f.path} wrap="truncate-end">
            <Text color={theme.text}>{fitPath(f.path, Math.max(4, inner - counts.length))}</Text>
            <Text color={theme.diffAdded}> +{f.additions}</Text>
            <Text color={theme.diffRemoved}> -{f.removals}</Text>
          </Text>
        );
      })}
      {modifiedFiles.length > maxFiles ? (
        <Text color={theme.textMuted}>… {modifiedFiles.length - maxFiles} more</Text>
      ) : null}
    </Box>
  );
});
