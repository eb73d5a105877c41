/** A FIFO queue with O(1) amortised shift. */
export class Queue<T> {
  private items: T[] = []
  private head = 0
  push(item: T): void {
    this.items.push(item)
  }
  peek(): T | undefined {
    return this.items[this.head]
  }
  shift(): T | undefined {
    const item = this.items[this.head++]
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head)
      this.head = 0
    }
    return item
  }
  clear(): void {
    this.items = []
    this.head = 0
  }
}
