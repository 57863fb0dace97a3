import { useCallback, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import { H3, NonIdealState, Spinner, Tag, Tree, type TreeNodeInfo } from '@blueprintjs/core'
import { useSnapshot } from 'valtio'
import { departmentDialog } from '../../../commands/organization.ts'
import type { Department } from '../../../contract/organization.ts'
import { useApi } from '../../api/query.ts'
import { useT } from '../../i18n/useT.ts'
import { closeDialog, useDialog } from '../../state/dialogs.ts'
import { workspace } from '../../state/workspace.ts'
import { CommandButton } from '../../ui/CommandButton.tsx'
import { useCommandHost } from '../../ui/commandHost.tsx'
import { listDepartments } from './api/listDepartments.ts'
import { DepartmentDialog } from './DepartmentDialog.tsx'
import { usePublish } from '../../state/focus.ts'

/**
 * Departments as a tree (SPEC §2 management/department, issue 8 item 1). Keyboard: ↑/↓ select,
 * → / ← expand and collapse, Enter renames, Delete deletes (SPEC's confirmation first). A
 * department dropped onto another moves under it; "move to…" picks the new parent from a list.
 */
export default function DepartmentPage({ path }: { path: string }) {
  const t = useT()
  const host = useCommandHost()
  const departments = useApi(['departments'], (signal) => listDepartments({ signal }))
  const dialogRequest = useDialog(departmentDialog)
  const { focused } = useSnapshot(workspace)
  const [selected, setSelected] = useState<number | null>(null)
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set())
  // Which department is being dragged: a ref, so a drag does not re-render the tree under it.
  const dragged = useRef<number | null>(null)
  const all = useMemo(() => departments.data?.items ?? [], [departments.data])
  const current = all.find((d) => d.id === selected)
  usePublish(path, current ? { kind: 'department', id: current.id, name: current.name } : undefined)

  const childrenOf = useCallback((parentId: number | null) => all.filter((d) => d.parentId === parentId), [all])
  /** The rows on screen, top to bottom: what ↑/↓ walk. */
  const visible = useMemo(() => {
    const out: Department[] = []
    const walk = (parentId: number | null) => {
      for (const d of childrenOf(parentId)) {
        out.push(d)
        if (!collapsed.has(d.id)) walk(d.id)
      }
    }
    walk(null)
    return out
  }, [childrenOf, collapsed])

  const drop = (target: number, e: DragEvent) => {
    e.preventDefault()
    // Onto itself is no move; onto a descendant goes to the server, which refuses the cycle in words.
    const id = dragged.current
    dragged.current = null
    if (id === null || id === target) return
    void host.run('admin.moveDepartment', 'button', { id, parentId: target })
  }

  const nodes = useMemo(() => {
    const build = (parentId: number | null): TreeNodeInfo<Department>[] =>
      childrenOf(parentId).map((d) => {
        const kids = build(d.id)
        return {
          id: d.id,
          nodeData: d,
          icon: 'office',
          isSelected: d.id === selected,
          isExpanded: kids.length > 0 && !collapsed.has(d.id),
          hasCaret: kids.length > 0,
          childNodes: kids,
          label: (
            <span
              draggable
              onDragStart={(e) => {
                dragged.current = d.id
                e.dataTransfer.setData('text/plain', d.name)
              }}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => drop(d.id, e)}
              data-testid={`department-${d.name}`}
            >
              {d.name}
            </span>
          ),
          secondaryLabel: d.userCount > 0 ? <Tag minimal>{t('org.department.users', [d.userCount])}</Tag> : undefined,
        }
      })
    return build(null)
  }, [childrenOf, collapsed, selected, t])

  const setOpen = (id: number, open: boolean) =>
    setCollapsed((c) => {
      const next = new Set(c)
      if (open) next.delete(id)
      else next.add(id)
      return next
    })

  const onKeyDown = (e: KeyboardEvent) => {
    const i = visible.findIndex((d) => d.id === selected)
    const current = visible[i]
    const go = (d: Department | undefined) => d && setSelected(d.id)
    const keys: Record<string, () => void> = {
      ArrowDown: () => go(visible[Math.min(i + 1, visible.length - 1)] ?? visible[0]),
      ArrowUp: () => go(visible[Math.max(i - 1, 0)]),
      ArrowRight: () => current && setOpen(current.id, true),
      ArrowLeft: () =>
        current &&
        (collapsed.has(current.id) || childrenOf(current.id).length === 0
          ? go(all.find((d) => d.id === current.parentId))
          : setOpen(current.id, false)),
      Enter: () => current && void host.run('admin.renameDepartment', 'button', { id: current.id, current: current.name }),
      Delete: () => current && void host.run('admin.deleteDepartment', 'button', { id: current.id }),
    }
    const action = keys[e.key]
    if (!action) return
    e.preventDefault()
    action()
  }

  const chosen = all.find((d) => d.id === selected)
  const close = useCallback(() => closeDialog(departmentDialog), [])
  const request = dialogRequest && focused === path ? dialogRequest : null
  return (
    <div className="admin-page department-page" data-testid="department-page">
      <div className="admin-header">
        <H3>{t('route.department')}</H3>
        <div className="admin-actions">
          <CommandButton id="admin.newDepartment" icon="add" intent="primary" args={{ parentId: null }} />
          {chosen && (
            <>
              <CommandButton
                id="admin.newDepartment"
                icon="add-to-folder"
                label={t('org.department.addChild')}
                args={{ parentId: chosen.id }}
              />
              <CommandButton id="admin.renameDepartment" icon="edit" args={{ id: chosen.id, current: chosen.name }} />
              <CommandButton id="admin.moveDepartment" icon="move" args={{ id: chosen.id }} />
              <CommandButton id="admin.deleteDepartment" icon="trash" intent="danger" args={{ id: chosen.id }} />
            </>
          )}
        </div>
      </div>
      <p className="admin-hint">{t('org.department.hint')}</p>
      {departments.data === undefined ? (
        departments.loading ? (
          <Spinner />
        ) : (
          <NonIdealState icon="error" title={t('message.loadError')} />
        )
      ) : all.length === 0 ? (
        <NonIdealState icon="office" title={t('org.department.empty')} />
      ) : (
        <div
          className="department-tree"
          tabIndex={0}
          role="group"
          aria-label={t('org.department.treeLabel')}
          onKeyDown={onKeyDown}
          data-testid="department-tree"
        >
          <Tree<Department>
            contents={nodes}
            onNodeClick={(n) => setSelected(Number(n.id))}
            onNodeDoubleClick={(n) =>
              void host.run('admin.renameDepartment', 'button', { id: Number(n.id), current: n.nodeData?.name ?? '' })
            }
            onNodeExpand={(n) => setOpen(Number(n.id), true)}
            onNodeCollapse={(n) => setOpen(Number(n.id), false)}
          />
        </div>
      )}
      {request && <DepartmentDialog key={request.seq} args={request.args} all={all} onClose={close} />}
    </div>
  )
}
