import { webhookRoutes } from '../../../webhooks/routes.ts'

export default webhookRoutes
