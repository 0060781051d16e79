import { collectionRoutes } from '../../../lib/collection-routes.js'
import { Employees } from '../../../schemas/index.js'

export default collectionRoutes(Employees)
