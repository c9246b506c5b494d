/**
 * The `agent` tool (as the original's): starts a read-only sub-agent (the `task` agent) on a search
 * or reading job and returns its final answer. The loop that runs it is injected through
 * `ctx.runSubAgent`, so this layer does not import the agent layer.
 */
import { z } from 'zod';
import { defineTool, ToolError, type ToolContext } from './tool.js';

const DESCRIPTION = `Launch a sub-agent that searches and reads the codebase with glob, grep, ls, view and sourcegraph, and returns a concise answer.
Use it for open-ended searches that may take several rounds ("where is X configured?", "which files use Y?"), to keep your own context small. Don't use it to read a known file (use view) or find a known class or symbol (use grep or glob).
- Launch several agents in one response when the searches are independent; they run concurrently.
- Each call is stateless and cannot ask you questions: say exactly what to find and what to return.
- The sub-agent cannot edit files or run commands. Its answer is not shown to the user: relay what matters.`;

export type { SubAgentAnswer, SubAgentRunner } from './context.js';

export const agentTool = defineTool({
  name: 'agent',
  description: DESCRIPTION,
  parameters: z.object({ prompt: z.string().min(1).describe('The task for the sub-agent') }),
  readOnly: true,
  async run({ prompt }, ctx: ToolContext) {
    const runSubAgent = ctx.runSubAgent;
    if (!runSubAgent) throw new ToolError('The agent tool is not available in this context.');
    const answer = await runSubAgent({
      parentSessionId: ctx.sessionId,
      toolCallId: ctx.toolCallId,
      prompt,
      signal: ctx.signal,
    });
    const metadata = { sessionId: answer.sessionId };
    if (answer.error) throw new ToolError(`The sub-agent failed: ${answer.error}`, metadata);
    if (!answer.text.trim()) throw new ToolError('The sub-agent finished without an answer.', metadata);
    return { output: answer.text, isError: false, metadata };
  },
});
