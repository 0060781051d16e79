import { collectionRoutes } from '../../../../../lib/collection-routes.js'
import { Animals, Zoos } from '../../../../../schemas/index.js'

export default collectionRoutes(Animals, { parent: Zoos, field: 'zoo_id' })
