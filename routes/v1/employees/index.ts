import { collectionRoutes } from '../../../collections/routes.ts'
import { Employees } from '../../../schemas/index.ts'

export default collectionRoutes(Employees)
