import { collectionRoutes } from '../../../../../collections/routes.ts'
import { Employees, Zoos } from '../../../../../schemas/index.ts'

export default collectionRoutes(Employees, { within: Zoos })
