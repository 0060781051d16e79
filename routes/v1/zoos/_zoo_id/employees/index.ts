import { collectionRoutes } from '../../../../../collections/routes.js'
import { Employees, Zoos } from '../../../../../schemas/index.js'

export default collectionRoutes(Employees, { within: Zoos })
