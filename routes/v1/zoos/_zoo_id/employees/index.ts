import { collectionRoutes } from '../../../../../lib/collection-routes.js'
import { Employees, Zoos } from '../../../../../schemas/index.js'

export default collectionRoutes(Employees, { parent: Zoos, field: 'zoo_id' })
