import { collectionRoutes } from '../../../collections/routes.js'
import { Employees } from '../../../schemas/index.js'

export default collectionRoutes(Employees)
