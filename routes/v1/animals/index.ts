import { collectionRoutes } from '../../../lib/collection-routes.js'
import { Animals } from '../../../schemas/index.js'

export default collectionRoutes(Animals)
