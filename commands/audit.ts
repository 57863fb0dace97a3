import { z } from 'zod'
import { auditFilters, auditPaths, type AuditExportFormat, type AuditFilters } from '../contract/audit.ts'
import { screenPath } from '../contract/screenPaths.ts'
import { capability, type CommandContext } from './context.ts'
import { defineCommand, type AnyCommand } from './define.ts'

/**
 * The audit log viewer's commands (issue 8 item 6): open it, export what it shows, and open the
 * history of the record in the focused pane beside it.
 */

/** The audit log opened with these filters (those the screen's path carries; a user id is not one). */
export const auditLogPath = (filters: AuditFilters = {}) => screenPath('auditLog', filters)

/** The audit log page in the focused pane offers the filters it shows now. */
export const auditView = capability<AuditFilters>('audit.view')

/** Filters given by the caller (the page's buttons), else those of the audit log in the focused pane. */
function currentFilters(ctx: CommandContext, given: AuditFilters | undefined): AuditFilters {
  if (given) return given
  const shown = ctx.focus?.use(auditView)
  if (shown) return shown
  // A pane that has not published yet still has its path's filters.
  if (ctx.focus?.screen !== 'auditLog') return {}
  const parsed = auditFilters.safeParse(ctx.focus.params)
  return parsed.success ? parsed.data : {}
}

export const openAuditLog = defineCommand({
  id: 'audit.open',
  title: 'audit.command.open',
  section: 'audit',
  permission: 'audit.view',
  keywords: ['audit', 'log', 'history', 'trail', '审计', '日志', '操作记录'],
  run: (ctx) => ctx.navigate(auditLogPath()),
})

function exportCommand(format: AuditExportFormat, id: string, title: string, keywords: string[]) {
  return defineCommand({
    id,
    title,
    section: 'audit',
    permission: 'audit.export',
    keywords: ['audit', 'log', 'export', 'download', '审计', '日志', '导出', '下载', ...keywords],
    args: z.object({ filters: auditFilters.optional() }).optional(),
    run: async (ctx, args) => {
      const filters = currentFilters(ctx, args?.filters)
      // Column headers in the language the user reads.
      await ctx.api.download(auditPaths.export, { format, lang: ctx.lang, ...filters })
    },
  })
}

export const exportAuditCsv = exportCommand('csv', 'audit.exportCsv', 'audit.command.exportCsv', ['csv'])
export const exportAuditXlsx = exportCommand('xlsx', 'audit.exportXlsx', 'audit.command.exportXlsx', ['xlsx', 'excel'])

/** The audit rows of the record the focused pane shows (an indicator, a CRF…), in a pane beside it. */
export const recordHistory = defineCommand({
  id: 'audit.recordHistory',
  title: 'audit.command.recordHistory',
  section: 'audit',
  permission: 'audit.view',
  keywords: ['audit', 'history', 'record', 'changes', '审计', '历史', '记录', '修改'],
  hotkey: 'alt+shift+h',
  when: (ctx) => ctx.focus?.record !== undefined,
  run: (ctx) => {
    const record = ctx.focus?.record
    if (!record) return
    ctx.panes.openToSide(auditLogPath({ objectType: record.kind, objectId: record.id }))
  },
})

export const auditCommands: AnyCommand[] = [openAuditLog, exportAuditCsv, exportAuditXlsx, recordHistory]
