import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { emptyEnvelope, envelope } from '../../../contract/envelope.ts'
import { idParam } from '../../../contract/ids.ts'
import {
  displayForm,
  displayFormsQuery,
  displayFormsSave,
  formDeleteQuery,
  formInstance,
  formListQuery,
  formQuery,
  formSave,
  formSaved,
  formTree as formTreeSchema,
  historyPage,
  historyQuery,
  recordHead,
  rowDeleted,
  rowDeleteInput,
  rowSaved,
  rowSaveInput,
  signInput,
  studyDataPaths,
  subjectRef,
  unblindInput,
  unblinded,
} from '../../../contract/studyData.ts'
import { subjectListPaths, viewInfo as viewInfoSchema } from '../../../contract/subjectList.ts'
import { actor, auditActor } from '../../plugins/auth.ts'
import { done, ok } from '../../plugins/envelope.ts'
import {
  deleteForm,
  deleteRow,
  displayForms,
  formInstance as readInstance,
  formList,
  formTree,
  history,
  saveDisplayForms,
  saveForm,
  saveRow,
  signRecord,
} from '../../services/studyData.ts'
import { unblind, viewInfo } from '../../services/subjectView.ts'

/**
 * A subject's forms and their entered data (SPEC §7 api/scientific/form and studyObject calls of
 * contract/studyData.ts), its header (getViewInfo), signing, the audit trail and emergency
 * unblinding. The guard decides the action on the project (`studyId`, else `:id`); the services
 * reach the subject only inside the caller's queues and centers.
 */

/** Query schemas replace the query, so they keep the session token that may travel as `?token=`. */
const token = { token: z.string().optional() }
const spec = (path: string) => `/${path.slice('api/'.length)}`
const subjectParams = z.object({ id: idParam, subjectId: idParam })
const recordParams = z.object({ id: idParam, recordId: idParam })

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['studyData']

  app.get(
    spec(studyDataPaths.displayForms),
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: "The project's forms as the caller shows them on a subject: order and shown (default: project order, prepose forms first)",
        querystring: displayFormsQuery.extend(token),
        response: { 200: envelope(z.array(displayForm)) },
      },
    },
    async (req) => ok(req, await displayForms(app.ctx, actor(req), req.query.studyId)),
  )

  app.post(
    spec(studyDataPaths.saveDisplayForms),
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: 'Saves the order and shown state of forms for the caller',
        body: displayFormsSave,
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await saveDisplayForms(app.ctx, actor(req), req.body.studyId, req.body.forms)
      return done(req)
    },
  )

  app.get(
    spec(studyDataPaths.formTree),
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: "The subject's forms, prepose forms before their dependants, with saved instances and what each waits for",
        querystring: subjectRef.extend(token),
        response: { 200: envelope(formTreeSchema) },
      },
    },
    async (req) => ok(req, await formTree(app.ctx, actor(req), req.query)),
  )

  app.get(
    spec(studyDataPaths.formList),
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: 'The saved instances (visits, samples, repeats) of one form of a subject',
        querystring: formListQuery.extend(token),
        response: { 200: envelope(z.array(recordHead)) },
      },
    },
    async (req) => ok(req, await formList(app.ctx, actor(req), req.query)),
  )

  app.get(
    spec(studyDataPaths.form),
    {
      config: { action: 'subject.enter' },
      schema: {
        tags,
        summary: 'One instance to enter: values, sub-form rows and the version they are read against',
        querystring: formQuery.extend(token),
        response: { 200: envelope(formInstance) },
      },
    },
    async (req) => ok(req, await readInstance(app.ctx, actor(req), 'subject.enter', req.query)),
  )

  app.get(
    spec(studyDataPaths.viewForm),
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: 'One instance, read only',
        querystring: formQuery.extend(token),
        response: { 200: envelope(formInstance) },
      },
    },
    async (req) => ok(req, await readInstance(app.ctx, actor(req), 'subject.read', req.query)),
  )

  app.post(
    spec(studyDataPaths.saveForm),
    {
      config: { action: 'subject.enter' },
      schema: {
        tags,
        summary:
          'Saves an instance (plain values and, when sent, whole sub forms) from the rev it was read at; 409 with the current values when that is old; a reason when saved data changes',
        body: formSave,
        response: { 200: envelope(formSaved) },
      },
    },
    async (req) => ok(req, await saveForm(app.ctx, actor(req), auditActor(req), req.lang, req.body)),
  )

  app.post(
    spec(studyDataPaths.saveRow),
    {
      config: { action: 'subject.enter' },
      schema: {
        tags,
        summary:
          'Saves one sub-form row (new, or from its rev) from the rev its instance was read at; 409 with the current values when either is old',
        body: rowSaveInput,
        response: { 200: envelope(rowSaved) },
      },
    },
    async (req) => ok(req, await saveRow(app.ctx, actor(req), auditActor(req), req.lang, req.body)),
  )

  app.post(
    spec(studyDataPaths.deleteRow),
    {
      config: { action: 'subject.enter' },
      schema: {
        tags,
        summary: 'Deletes one saved sub-form row, with a reason, from the revs it and its instance were read at',
        body: rowDeleteInput,
        response: { 200: envelope(rowDeleted) },
      },
    },
    async (req) => ok(req, await deleteRow(app.ctx, actor(req), auditActor(req), req.body)),
  )

  app.post(
    spec(studyDataPaths.deleteForm),
    {
      config: { action: 'subject.deleteForm' },
      schema: {
        tags,
        summary: "Deletes a subject's form instance with a reason; refused once signed",
        querystring: formDeleteQuery.extend(token),
        response: { 200: emptyEnvelope },
      },
    },
    async (req) => {
      await deleteForm(app.ctx, actor(req), auditActor(req), req.query)
      return done(req)
    },
  )

  app.post(
    '/projects/:id/records/:recordId/sign',
    {
      config: { action: 'subject.sign' },
      schema: {
        tags,
        summary: 'Signs a form instance at the rev it was read at',
        params: recordParams,
        body: signInput,
        response: { 200: envelope(recordHead) },
      },
    },
    async (req) => ok(req, await signRecord(app.ctx, actor(req), auditActor(req), req.params.id, req.params.recordId, req.body)),
  )

  app.get(
    '/projects/:id/subjects/:subjectId/history',
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: "The subject's audit trail, newest first: all of it, one record's, or one field's",
        params: subjectParams,
        querystring: historyQuery.extend(token),
        response: { 200: envelope(historyPage) },
      },
    },
    async (req) => ok(req, await history(app.ctx, actor(req), req.params.id, req.params.subjectId, req.query)),
  )

  app.post(
    '/projects/:id/subjects/:subjectId/unblind',
    {
      config: { action: 'subject.unblind' },
      schema: {
        tags,
        summary: "Emergency unblinding: the subject's group, with a reason, logged in its audit trail and the project's log",
        params: subjectParams,
        body: unblindInput,
        response: { 200: envelope(unblinded) },
      },
    },
    async (req) => ok(req, await unblind(app.ctx, actor(req), auditActor(req), req.params.id, req.params.subjectId, req.body.reason)),
  )

  app.get(
    spec(subjectListPaths.viewInfo),
    {
      config: { action: 'subject.read' },
      schema: {
        tags,
        summary: "One research object's header: number, center, queue, status, group (none for blinded callers), checklist",
        querystring: subjectRef.extend(token),
        response: { 200: envelope(viewInfoSchema) },
      },
    },
    async (req) => ok(req, await viewInfo(app.ctx, actor(req), req.lang, req.query.studyId, req.query.objectId)),
  )
}

export default routes
