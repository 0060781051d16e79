import { collectionRoutes } from '../../../../../collections/routes.ts'
import { Animals, Zoos } from '../../../../../schemas/index.ts'

export default collectionRoutes(Animals, { within: Zoos })
